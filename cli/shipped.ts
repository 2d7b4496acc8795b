import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { PACKAGE_ROOT } from './package-root';

/** The folders of files loopscope ships for users to run as they are. */
const SHIPPED_FOLDERS = ['scenarios', 'examples'];

/**
 * A scenario argument as the user means it: the file at that path when there is one; otherwise, for a
 * relative path into the shipped scenarios/ or examples/ (the README's `npx loopscope check
 * scenarios/incus-hpa-check-small.yaml`, typed in any directory once loopscope is installed), the file
 * the package ships. Anything else is left as it is, to fail with the usual "file not found".
 */
export function scenarioArgument(
  file: string,
  note: (line: string) => void = (line) => process.stderr.write(`loopscope: ${line}\n`),
): string {
  if (existsSync(file) || isAbsolute(file)) return file;
  const inside = normalize(file);
  if (inside.startsWith(`..${sep}`) || !SHIPPED_FOLDERS.some((f) => inside.startsWith(`${f}${sep}`))) return file;
  const shipped = join(PACKAGE_ROOT, inside);
  if (!existsSync(shipped) || !statSync(shipped).isFile()) return file;
  note(`${file}: not in this directory; using the one loopscope ships (${relative(process.cwd(), shipped) || shipped})`);
  return shipped;
}
