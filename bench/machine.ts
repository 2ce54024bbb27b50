import { readFileSync } from 'node:fs';

/** The machine's CPU time so far, in clock ticks: all of it, and the part a hypervisor gave to other guests. */
interface CpuTicks {
  total: number;
  steal: number;
}

/** From /proc/stat (Linux); undefined elsewhere. */
function cpuTicks(): CpuTicks | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
    const counted = fields.slice(0, 8);
    if (counted.length < 8 || counted.some((value) => !Number.isFinite(value))) return undefined;
    return { total: counted.reduce((sum, value) => sum + value, 0), steal: counted[7] };
  } catch {
    return undefined;
  }
}

/**
 * Measures the share of the machine's CPU time stolen by other guests while `measured` runs: on a
 * shared virtual machine it moves req/s and p99 as much as a code change does, so each figure
 * carries it.
 */
export async function withStealShare<T>(measured: () => Promise<T>): Promise<{ result: T; steal?: number }> {
  const before = cpuTicks();
  const result = await measured();
  const after = cpuTicks();
  if (!before || !after || after.total <= before.total) return { result };
  return { result, steal: (after.steal - before.steal) / (after.total - before.total) };
}
