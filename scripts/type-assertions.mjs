// Counts type assertions (`x as T`, `<T>x`, not `as const`) in the .ts files under a folder: node scripts/type-assertions.mjs src [--files]
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
const root = process.argv[2] ?? 'src';
const files = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
let total = 0,
  unknownCasts = 0;
const per = [];
for (const file of files(root)) {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  let n = 0;
  const visit = (node) => {
    if (
      (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
      !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(sf) === 'const')
    ) {
      n++;
      if (ts.isAsExpression(node.expression) && node.expression.type.kind === ts.SyntaxKind.UnknownKeyword) {
        unknownCasts++;
        if (!file.includes('/db/')) console.log('as unknown as:', file);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  total += n;
  if (n) per.push([n, file]);
}
per.sort((a, b) => b[0] - a[0]);
if (process.argv.includes('--files')) for (const [n, f] of per) console.log(n, f);
console.log(`type assertions in ${root}: ${total} (as unknown as: ${unknownCasts})`);
