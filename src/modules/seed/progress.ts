/** A one-line progress bar on a terminal; plain periodic lines when the output is not a terminal. */
export function progressReporter(
  label: string,
  stream: NodeJS.WriteStream = process.stderr,
): (done: number, total: number) => void {
  const started = Date.now();
  let lastLine = 0;
  return (done, total) => {
    const fraction = total === 0 ? 1 : done / total;
    const elapsed = (Date.now() - started) / 1000;
    const rate = elapsed > 0 ? Math.round(done / elapsed) : 0;
    const eta = rate > 0 ? Math.round((total - done) / rate) : 0;
    const text = `${label} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} (${Math.round(fraction * 100)}%) ${rate.toLocaleString('en-US')}/s, ${elapsed.toFixed(1)} s elapsed, ~${eta} s left`;
    if (stream.isTTY) {
      const width = 30;
      const bar = '#'.repeat(Math.round(fraction * width)).padEnd(width, '.');
      stream.write(`\r[${bar}] ${text}${done >= total ? '\n' : ''}`);
    } else if (done >= total || Date.now() - lastLine > 2000) {
      lastLine = Date.now();
      stream.write(`${text}\n`);
    }
  };
}

/** A line as each finishing step of a long command begins, so that a pause after the bar is explained. */
export function stepReporter(stream: NodeJS.WriteStream = process.stderr): (step: string) => void {
  return (step) => stream.write(`${step}…\n`);
}
