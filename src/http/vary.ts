/** A `Vary` value naming `name` besides what `current` names (once, whatever the case). */
export function withVary(current: unknown, name: string): string {
  if (typeof current !== 'string' || current === '') return name;
  const names = current.split(',').map((item) => item.trim().toLowerCase());
  return names.includes(name.toLowerCase()) || names.includes('*') ? current : `${current}, ${name}`;
}
