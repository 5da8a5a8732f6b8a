// Local ESLint rules for feature modules (src/modules/<name>/).
// no-module-cycle: no cycle between modules. A file-level cycle rule does not see these (accounts → admin and
// admin → accounts can go through different files), so this builds the graph of modules from the imports of every
// file under src/modules and reports an import that closes a cycle.
// no-foreign-repo: a module reaches another through that module's service, never its repo (docs/decisions/0042).
import fs from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The module a file belongs to, or null outside src/modules. */
export function moduleOf(file) {
  const m = file.split(path.sep).join('/').match(/\/src\/modules\/([^/]+)\//);
  return m ? m[1] : null;
}

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

let cache = null;

/** module → the set of modules its non-test files import; rebuilt when older than a second (one lint run). */
export function moduleGraph(modulesDir) {
  if (cache && cache.dir === modulesDir && Date.now() - cache.at < 1_000) return cache.graph;
  const graph = new Map();
  for (const file of walk(modulesDir, [])) {
    const from = moduleOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('.')) continue;
      const to = moduleOf(path.resolve(path.dirname(file), spec));
      if (to && to !== from) graph.get(from).add(to);
    }
  }
  cache = { dir: modulesDir, at: Date.now(), graph };
  return graph;
}

/** A path of modules from `start` to `goal`, or null. */
function pathBetween(graph, start, goal) {
  const seen = new Set([start]);
  const queue = [[start]];
  while (queue.length > 0) {
    const trail = queue.shift();
    const last = trail[trail.length - 1];
    if (last === goal) return trail;
    for (const next of graph.get(last) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([...trail, next]);
    }
  }
  return null;
}

const noModuleCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'no import cycle between src/modules/<name> modules' },
    schema: [],
    messages: { cycle: 'Module cycle: {{cycle}}. Move the shared piece to src/common or src/platform (docs/architecture.md).' },
  },
  create(context) {
    const filename = context.filename;
    const from = moduleOf(filename);
    if (!from || /\.test\.ts$/.test(filename)) return {};
    const modulesDir = filename.slice(0, filename.split(path.sep).join('/').lastIndexOf('/src/modules/') + '/src/modules'.length);
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = moduleOf(path.resolve(path.dirname(filename), spec));
      if (!to || to === from) return;
      const back = pathBetween(moduleGraph(modulesDir), to, from);
      if (back) context.report({ node, messageId: 'cycle', data: { cycle: [from, ...back].join(' → ') } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

const REPO = /\.repo\.ts$/;

// Above the data layer, another module's tables are reached only through what its service file offers (its
// service, or the statements it re-exports for use inside the caller's transaction), so the owner decides what
// others may do with them. A repo may still build on another module's statement or SQL fragment: that is one
// query or one transaction, below the services.
const noForeignRepo = {
  meta: {
    type: 'problem',
    docs: { description: "no import of another module's *.repo.ts outside repos" },
    schema: [],
    messages: { foreign: "{{from}} reaches {{to}}'s repo: go through {{to}}'s service ({{service}}), which decides what it offers (docs/decisions/0042)." },
  },
  create(context) {
    const filename = context.filename;
    const from = moduleOf(filename);
    if (!from || /\.test\.ts$/.test(filename) || REPO.test(filename)) return {};
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.') || !REPO.test(spec)) return;
      const to = moduleOf(path.resolve(path.dirname(filename), spec));
      if (!to || to === from) return;
      context.report({ node, messageId: 'foreign', data: { from, to, service: `modules/${to}/*.service.ts` } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { 'no-module-cycle': noModuleCycle, 'no-foreign-repo': noForeignRepo } };
