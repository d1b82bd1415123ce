import test from 'ava';
import * as ir from '../../src/ir/index.js';

test('the IR index re-exports the public API others build on', (t) => {
  const fns = [
    'Builder', 'constant', 'addGlobal', 'addFunction', 'findBlock', 'functionById', 'findInst', 'firstNonPhiIndex',
    'printModule', 'printFunction', 'printInst', 'parseModuleText', 'IrParseError', 'verifyModule', 'assertValid', 'IrVerifyError',
    'buildCfg', 'dominatorTree', 'postDominatorTree', 'immediatePostDominator', 'cloneModule', 'cloneFunction', 'remapInst',
    'newModule', 'freshId', 'intern', 'declareStruct', 'operands', 'successors', 'isTerminator',
  ];
  const exported = ir as unknown as Record<string, unknown>;
  t.deepEqual(fns.filter((n) => typeof exported[n] !== 'function'), []);
});

test('a module built through the index verifies and round-trips', (t) => {
  const m = ir.newModule();
  const fn = ir.addFunction(m, { name: 'main', returnType: ir.T.void(m.types) });
  const b = new ir.Builder(m, fn);
  b.setInsertPoint(b.createBlock('entry'));
  b.emitVoid('return', {});
  m.entryPoints.push({ stage: 'miss', function: fn.id, name: 'main' });
  t.deepEqual(ir.verifyModule(m), []);
  t.is(ir.printModule(ir.parseModuleText(ir.printModule(m))), ir.printModule(m));
});
