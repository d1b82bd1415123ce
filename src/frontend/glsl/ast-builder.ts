/**
 * CST visitor that builds the AST of `ast.ts` from the parser's concrete syntax tree.
 *
 * It runs only on a CST without syntax errors, so every child the grammar requires is present.
 * It applies GLSL operator precedence to the flat binary-operator lists the parser produces,
 * splits multi-name member declarations into one member each, and groups switch labels into
 * cases. Locations: declarations and statements at their first token, binary / assignment /
 * ternary expressions at their operator, calls at the callee, everything else at its token.
 * Problems it can still find (a method call other than `.length()`, a statement before the first
 * `case`) are collected in `diagnostics`.
 */
import type { CstElement, CstNode, IToken } from 'chevrotain';
import type { Loc } from '../../ir/inst.js';
import type {
  AssignOp, Attribute, BinaryOperator, BlockDecl, CompoundStmt, Expr, ExternalDecl, FunctionDecl, LayoutQualifier,
  ParamDecl, Qualifiers, Stmt, StructDecl, StructMemberDecl, SwitchCase, TranslationUnit, TypeSpec, UnaryOperator,
  VarDecl, VarDeclarator,
} from './ast.js';
import { glslParser } from './parser.js';
import type { GlslToken } from './tokens.js';

type Children = Record<string, CstElement[] | undefined>;

export interface AstProblem {
  loc: Loc;
  message: string;
}

/** GLSL precedence, higher binds tighter; all binary operators are left-associative. */
const PRECEDENCE: Readonly<Record<string, number>> = {
  '||': 1, '^^': 2, '&&': 3, '|': 4, '^': 5, '&': 6, '==': 7, '!=': 7,
  '<': 8, '>': 8, '<=': 8, '>=': 8, '<<': 9, '>>': 9, '+': 10, '-': 10, '*': 11, '/': 11, '%': 11,
};

const BaseVisitor = glslParser.getBaseCstVisitorConstructor<undefined, unknown>();

function tok(c: Children, name: string, i = 0): IToken | undefined {
  return c[name]?.[i] as IToken | undefined;
}
function node(c: Children, name: string, i = 0): CstNode | undefined {
  return c[name]?.[i] as CstNode | undefined;
}
function nodes(c: Children, name: string): CstNode[] {
  return (c[name] ?? []) as CstNode[];
}
function tokens(c: Children, name: string): IToken[] {
  return (c[name] ?? []) as IToken[];
}
function locOf(t: IToken): Loc {
  return { file: (t as GlslToken).file ?? 0, line: t.startLine ?? 0, column: t.startColumn ?? 0 };
}

export class AstBuilder extends BaseVisitor {
  diagnostics: AstProblem[] = [];
  /** The token vector the CST was parsed from: node offsets index it. */
  private input: readonly IToken[] = [];

  constructor() {
    super();
    this.validateVisitor();
  }

  /** What each hole token of a chunked parse (deep-nesting.ts) stands for: its chunk's tree. */
  private holes = new Map<IToken, Expr | Expr[] | Stmt>();
  /** Stand-ins for holes that are not expressions, replaced by callArguments / compoundStatement. */
  private standIns = new WeakMap<Expr, Expr[] | Stmt>();
  /** Synthetic braces and parentheses of a chunked parse: they leave no node. */
  private synthetic: WeakSet<IToken> = new WeakSet();

  build(cst: CstNode, input: readonly IToken[], version: number, extensions: TranslationUnit['extensions']): TranslationUnit {
    this.input = input;
    this.diagnostics = [];
    this.holes.clear();
    this.synthetic = new WeakSet();
    const decls = this.visit(cst) as ExternalDecl[];
    return { version, extensions, decls };
  }

  /**
   * Builds a shader parsed in chunks: `parts[0]` is the unit, every other part the CST of one
   * chunk, which comes after the chunk holding its hole. Built innermost first, each chunk's tree
   * then stands in for its hole, so no visit goes deeper than one chunk.
   */
  buildChunked(
    parts: { cst: CstNode; hole?: IToken }[], input: readonly IToken[], synthetic: WeakSet<IToken>, version: number, extensions: TranslationUnit['extensions'],
  ): TranslationUnit {
    this.input = input;
    this.diagnostics = [];
    this.holes.clear();
    this.synthetic = synthetic;
    try {
      for (let i = parts.length - 1; i > 0; i--) this.holes.set(parts[i]!.hole!, this.visit(parts[i]!.cst) as Expr | Expr[] | Stmt);
      const decls = this.visit(parts[0]!.cst) as ExternalDecl[];
      return { version, extensions, decls };
    } finally {
      this.holes.clear();
      this.synthetic = new WeakSet();
    }
  }

  private startLoc(n: CstNode): Loc {
    const t = this.input[n.location?.startOffset ?? -1];
    return t === undefined ? { file: 0, line: 0, column: 0 } : locOf(t);
  }

  private expr(n: CstNode | undefined): Expr {
    return this.visit(n as CstNode) as Expr;
  }

  // ------------------------------------------------------------ declarations

  translationUnit(c: Children): ExternalDecl[] {
    const out: ExternalDecl[] = [];
    for (const d of nodes(c, 'externalDeclaration')) {
      const r = this.visit(d) as ExternalDecl | undefined;
      if (r !== undefined) out.push(r);
    }
    return out;
  }

  externalDeclaration(c: Children): ExternalDecl | undefined {
    const p = node(c, 'precisionDeclaration');
    return p !== undefined ? (this.visit(p) as ExternalDecl) : (this.visit(node(c, 'declaration')!) as ExternalDecl | undefined);
  }

  precisionDeclaration(c: Children, _p?: unknown): ExternalDecl {
    const kw = tok(c, 'Precision')!;
    const prec = tok(c, 'PrecisionQualifier')!;
    const loc = locOf(kw);
    return {
      kind: 'qualifierDecl',
      qualifiers: { layout: [], memory: [], precision: prec.image as Qualifiers['precision'], loc },
      type: this.visit(node(c, 'typeSpecifier')!) as TypeSpec,
      names: [],
      loc,
    };
  }

  declaration(c: Children, _p?: unknown): ExternalDecl | undefined {
    // `this.visit` passes the node's children; recover the node's own location through the first child.
    const first = this.firstLoc(c);
    const qn = node(c, 'typeQualifiers');
    const qualifiers = qn !== undefined ? (this.visit(qn) as Qualifiers) : emptyQualifiers(first);
    const block = node(c, 'blockDeclaration');
    if (block !== undefined) {
      const b = this.visit(block) as BlockDecl;
      return { ...b, qualifiers, loc: first };
    }
    const names = tokens(c, 'names');
    if (names.length > 0) return { kind: 'qualifierDecl', qualifiers, names: names.map((t) => t.image), loc: first };
    const ts = node(c, 'typeSpecifier');
    if (ts === undefined) {
      return qn === undefined ? undefined : { kind: 'qualifierDecl', qualifiers, names: [], loc: first };
    }
    const type = this.visit(ts) as TypeSpec;
    const fn = node(c, 'functionDefinition');
    if (fn !== undefined) {
      const f = this.visit(fn) as Omit<FunctionDecl, 'returnType' | 'returnQualifiers'>;
      return { ...f, returnType: type, returnQualifiers: qualifiers, loc: first };
    }
    const list = node(c, 'initDeclaratorList');
    if (list !== undefined) {
      return { kind: 'var', qualifiers, type, declarators: this.visit(list) as VarDeclarator[], loc: first };
    }
    if (type.struct !== undefined && qn === undefined) return type.struct;
    return { kind: 'qualifierDecl', qualifiers, type, names: [], loc: first };
  }

  /** Location of the earliest token among a node's children (for rules visited via their children). */
  private firstLoc(c: Children): Loc {
    let best: number | undefined;
    for (const list of Object.values(c)) {
      for (const e of list ?? []) {
        const off = 'image' in e ? (e as IToken).startOffset : (e as CstNode).location?.startOffset;
        if (off !== undefined && !Number.isNaN(off) && (best === undefined || off < best)) best = off;
      }
    }
    const t = best === undefined ? undefined : this.input[best];
    return t === undefined ? { file: 0, line: 0, column: 0 } : locOf(t);
  }

  typeQualifiers(c: Children): Qualifiers {
    const q = emptyQualifiers(this.firstLoc(c));
    for (const l of nodes(c, 'layoutQualifier')) q.layout.push(...(this.visit(l) as LayoutQualifier[]));
    const storage = tokens(c, 'StorageQualifier').map((t) => t.image as NonNullable<Qualifiers['storage']>);
    // `const in` on a parameter: the direction is what matters for the call; const only forbids writes.
    const chosen = storage.find((s) => s !== 'const') ?? storage[0];
    if (chosen !== undefined) q.storage = chosen;
    for (const m of tokens(c, 'MemoryQualifier')) q.memory.push(m.image as Qualifiers['memory'][number]);
    const p = tok(c, 'PrecisionQualifier');
    if (p !== undefined) q.precision = p.image as Qualifiers['precision'];
    const i = tok(c, 'InterpolationQualifier');
    if (i !== undefined) q.interpolation = i.image as Qualifiers['interpolation'];
    if (tok(c, 'Invariant') !== undefined) q.invariant = true;
    if (tok(c, 'Precise') !== undefined) q.precise = true;
    if (tok(c, 'NonUniform') !== undefined) q.nonuniform = true;
    return q;
  }

  layoutQualifier(c: Children): LayoutQualifier[] {
    return nodes(c, 'layoutEntry').map((e) => this.visit(e) as LayoutQualifier);
  }

  layoutEntry(c: Children): LayoutQualifier {
    const name = tok(c, 'name')!;
    const v = node(c, 'conditionalExpression');
    const entry: LayoutQualifier = { name: name.image, loc: locOf(name) };
    if (v !== undefined) entry.value = this.expr(v);
    return entry;
  }

  typeSpecifier(c: Children): TypeSpec {
    const arrayDims = nodes(c, 'arraySpecifier').map((a) => this.visit(a) as Expr | null);
    const name = tok(c, 'name');
    if (name !== undefined) return { name: name.image, arrayDims, loc: locOf(name) };
    const s = this.visit(node(c, 'structSpecifier')!) as StructDecl;
    return { name: s.name, struct: s, arrayDims, loc: s.loc };
  }

  structSpecifier(c: Children): StructDecl {
    return {
      kind: 'struct',
      name: tok(c, 'name')?.image ?? '',
      members: nodes(c, 'structMember').flatMap((m) => this.visit(m) as StructMemberDecl[]),
      loc: locOf(tok(c, 'Struct')!),
    };
  }

  structMember(c: Children): StructMemberDecl[] {
    const qn = node(c, 'typeQualifiers');
    const type = this.visit(node(c, 'typeSpecifier')!) as TypeSpec;
    const qualifiers = qn !== undefined ? (this.visit(qn) as Qualifiers) : emptyQualifiers(type.loc);
    return nodes(c, 'structDeclarator').map((d) => {
      const r = this.visit(d) as { name: string; arrayDims: (Expr | null)[]; loc: Loc };
      return { qualifiers, type, name: r.name, arrayDims: r.arrayDims, loc: r.loc };
    });
  }

  structDeclarator(c: Children): { name: string; arrayDims: (Expr | null)[]; loc: Loc } {
    const name = tok(c, 'Identifier')!;
    return { name: name.image, arrayDims: nodes(c, 'arraySpecifier').map((a) => this.visit(a) as Expr | null), loc: locOf(name) };
  }

  arraySpecifier(c: Children): Expr | null {
    const e = node(c, 'conditionalExpression');
    return e === undefined ? null : this.expr(e);
  }

  blockDeclaration(c: Children): BlockDecl {
    const name = tok(c, 'blockName')!;
    const inst = tok(c, 'instanceName');
    const b: BlockDecl = {
      kind: 'block',
      qualifiers: emptyQualifiers(locOf(name)),
      blockName: name.image,
      members: nodes(c, 'structMember').flatMap((m) => this.visit(m) as StructMemberDecl[]),
      instanceArrayDims: nodes(c, 'arraySpecifier').map((a) => this.visit(a) as Expr | null),
      loc: locOf(name),
    };
    if (inst !== undefined) b.instanceName = inst.image;
    return b;
  }

  functionDefinition(c: Children): Omit<FunctionDecl, 'returnType' | 'returnQualifiers'> {
    const name = tok(c, 'name')!;
    let params = nodes(c, 'parameterDeclaration').map((p) => this.visit(p) as ParamDecl);
    // `f(void)` declares no parameters.
    if (params.length === 1 && params[0]!.type.name === 'void' && params[0]!.name === undefined && params[0]!.type.arrayDims.length === 0) params = [];
    const f: Omit<FunctionDecl, 'returnType' | 'returnQualifiers'> = { kind: 'function', name: name.image, params, loc: locOf(name) };
    const body = node(c, 'compoundStatement');
    if (body !== undefined) f.body = this.visit(body) as CompoundStmt;
    return f;
  }

  parameterDeclaration(c: Children): ParamDecl {
    const qn = node(c, 'typeQualifiers');
    const type = this.visit(node(c, 'typeSpecifier')!) as TypeSpec;
    const name = tok(c, 'name');
    const p: ParamDecl = {
      qualifiers: qn !== undefined ? (this.visit(qn) as Qualifiers) : emptyQualifiers(type.loc),
      type,
      arrayDims: nodes(c, 'arraySpecifier').map((a) => this.visit(a) as Expr | null),
      loc: qn !== undefined ? this.startLoc(qn) : type.loc,
    };
    if (name !== undefined) p.name = name.image;
    return p;
  }

  initDeclaratorList(c: Children): VarDeclarator[] {
    return nodes(c, 'initDeclarator').map((d) => this.visit(d) as VarDeclarator);
  }

  initDeclarator(c: Children): VarDeclarator {
    const name = tok(c, 'name')!;
    const d: VarDeclarator = { name: name.image, arrayDims: nodes(c, 'arraySpecifier').map((a) => this.visit(a) as Expr | null), loc: locOf(name) };
    const init = node(c, 'initializer');
    if (init !== undefined) d.init = this.expr(init);
    return d;
  }

  initializer(c: Children): Expr {
    return this.expr(node(c, 'assignmentExpression') ?? node(c, 'initializerList'));
  }

  initializerList(c: Children): Expr {
    return { kind: 'initList', items: nodes(c, 'initializer').map((i) => this.expr(i)), loc: locOf(tok(c, 'LCurly')!) };
  }

  // ------------------------------------------------------------ statements

  statement(c: Children): Stmt {
    const empty = tok(c, 'empty');
    if (empty !== undefined) return { kind: 'empty', loc: locOf(empty) };
    const p = node(c, 'precisionDeclaration');
    if (p !== undefined) return { kind: 'empty', loc: this.startLoc(p) }; // precision has no meaning for Vulkan
    const inner = node(c, 'compoundStatement') ?? node(c, 'declarationStatement') ?? node(c, 'controlStatement')
      ?? node(c, 'jumpStatement') ?? node(c, 'expressionStatement');
    return this.visit(inner!) as Stmt;
  }

  /** A block; in a chunked parse also a hole's block, and synthetic braces around one statement are that statement. */
  compoundStatement(c: Children): Stmt {
    const open = tok(c, 'LCurly')!;
    const body = nodes(c, 'statement').map((s) => this.visit(s) as Stmt);
    const only = body.length === 1 ? body[0]! : undefined;
    if (only?.kind === 'exprStmt') {
      const chunk = this.standIns.get(only.expr);
      if (chunk !== undefined && !Array.isArray(chunk)) return chunk;
    }
    if (only !== undefined && this.synthetic.has(open)) return only;
    return { kind: 'compound', body, loc: locOf(open) };
  }

  declarationStatement(c: Children): Stmt {
    const loc = this.firstLoc(c);
    const qn = node(c, 'typeQualifiers');
    const type = this.visit(node(c, 'typeSpecifier')!) as TypeSpec;
    const list = node(c, 'initDeclaratorList');
    if (list === undefined && type.struct !== undefined && qn === undefined) return { kind: 'declStmt', decl: type.struct, loc };
    const decl: VarDecl = {
      kind: 'var',
      qualifiers: qn !== undefined ? (this.visit(qn) as Qualifiers) : emptyQualifiers(loc),
      type,
      declarators: list === undefined ? [] : (this.visit(list) as VarDeclarator[]),
      loc,
    };
    return { kind: 'declStmt', decl, loc };
  }

  controlStatement(c: Children): Stmt {
    const attributes = nodes(c, 'attribute').flatMap((a) => this.visit(a) as Attribute[]);
    const inner = node(c, 'ifStatement') ?? node(c, 'switchStatement') ?? node(c, 'forStatement') ?? node(c, 'whileStatement') ?? node(c, 'doWhileStatement');
    const s = this.visit(inner!) as Stmt & { attributes: Attribute[] };
    s.attributes = attributes;
    return s;
  }

  attribute(c: Children): Attribute[] {
    return nodes(c, 'attributeEntry').map((e) => this.visit(e) as Attribute);
  }

  attributeEntry(c: Children): Attribute {
    const name = tok(c, 'name')!;
    return { name: name.image, args: nodes(c, 'assignmentExpression').map((a) => this.expr(a)), loc: locOf(name) };
  }

  ifStatement(c: Children): Stmt {
    const s: Stmt = {
      kind: 'if', cond: this.expr(node(c, 'expression')), then: this.visit(node(c, 'then')!) as Stmt, attributes: [], loc: locOf(tok(c, 'If')!),
    };
    const e = node(c, 'else');
    if (e !== undefined) s.else = this.visit(e) as Stmt;
    return s;
  }

  switchStatement(c: Children): Stmt {
    const cases: SwitchCase[] = [];
    for (const item of nodes(c, 'switchItem')) {
      const ic = item.children as Children;
      const label = node(ic, 'caseLabel');
      if (label !== undefined) {
        const lc = label.children as Children;
        const value = node(lc, 'expression');
        const l = value === undefined ? null : this.expr(value);
        const last = cases[cases.length - 1];
        // Consecutive labels share one case body.
        if (last !== undefined && last.body.length === 0) last.labels.push(l);
        else cases.push({ labels: [l], body: [], loc: locOf(tok(lc, 'Case') ?? tok(lc, 'Default')!) });
        continue;
      }
      const st = this.visit(node(ic, 'statement')!) as Stmt;
      const last = cases[cases.length - 1];
      if (last === undefined) this.diagnostics.push({ loc: st.loc, message: "statement before the first 'case' label in switch" });
      else last.body.push(st);
    }
    return { kind: 'switch', selector: this.expr(node(c, 'expression')), body: cases, attributes: [], loc: locOf(tok(c, 'Switch')!) };
  }

  switchItem(_c: Children): never {
    throw new Error('switchItem is visited by switchStatement');
  }

  caseLabel(_c: Children): never {
    throw new Error('caseLabel is visited by switchStatement');
  }

  forStatement(c: Children): Stmt {
    const s: Stmt = { kind: 'for', body: this.visit(node(c, 'body')!) as Stmt, attributes: [], loc: locOf(tok(c, 'For')!) };
    const init = this.visit(node(c, 'forInit')!) as Stmt | undefined;
    if (init !== undefined) s.init = init;
    const cond = node(c, 'cond');
    if (cond !== undefined) s.cond = this.expr(cond);
    const step = node(c, 'step');
    if (step !== undefined) s.step = this.expr(step);
    return s;
  }

  forInit(c: Children): Stmt | undefined {
    const inner = node(c, 'declarationStatement') ?? node(c, 'expressionStatement');
    return inner === undefined ? undefined : (this.visit(inner) as Stmt);
  }

  whileStatement(c: Children): Stmt {
    return { kind: 'while', cond: this.expr(node(c, 'expression')), body: this.visit(node(c, 'statement')!) as Stmt, attributes: [], loc: locOf(tok(c, 'While')!) };
  }

  doWhileStatement(c: Children): Stmt {
    return { kind: 'doWhile', body: this.visit(node(c, 'statement')!) as Stmt, cond: this.expr(node(c, 'expression')), attributes: [], loc: locOf(tok(c, 'Do')!) };
  }

  jumpStatement(c: Children): Stmt {
    const kw = tok(c, 'keyword')!;
    const loc = locOf(kw);
    switch (kw.image) {
      case 'break': return { kind: 'break', loc };
      case 'continue': return { kind: 'continue', loc };
      case 'discard': return { kind: 'discard', loc };
      case 'terminateRayEXT': return { kind: 'terminateRay', loc };
      case 'ignoreIntersectionEXT': return { kind: 'ignoreIntersection', loc };
      default: {
        const v = node(c, 'expression');
        return v === undefined ? { kind: 'return', loc } : { kind: 'return', value: this.expr(v), loc };
      }
    }
  }

  expressionStatement(c: Children): Stmt {
    const e = this.expr(node(c, 'expression'));
    return { kind: 'exprStmt', expr: e, loc: this.firstLoc(c) };
  }

  // ------------------------------------------------------------ expressions

  expression(c: Children): Expr {
    const parts = nodes(c, 'assignmentExpression').map((a) => this.expr(a));
    return parts.length === 1 ? parts[0]! : { kind: 'comma', exprs: parts, loc: locOf(tok(c, 'Comma')!) };
  }

  assignmentExpression(c: Children): Expr {
    const left = this.conditionalExpression(c);
    const op = tok(c, 'AssignOperator');
    if (op === undefined) return left;
    return { kind: 'assign', op: op.image as AssignOp, target: left, value: this.expr(node(c, 'value')), loc: locOf(op) };
  }

  /** Also reads the conditional part of `assignmentExpression`, whose children have the same names. */
  conditionalExpression(c: Children): Expr {
    const cond = this.binaryOperands(c);
    const q = tok(c, 'Question');
    if (q === undefined) return cond;
    return { kind: 'ternary', cond, then: this.expr(node(c, 'expression')), else: this.expr(node(c, 'else')), loc: locOf(q) };
  }

  /** Operator-precedence (shunting-yard) over `unary (op unary)*`. */
  private binaryOperands(c: Children): Expr {
    const operands = nodes(c, 'unaryExpression');
    const ops = tokens(c, 'BinaryOperatorToken');
    if (ops.length === 0) return this.expr(operands[0]);
    const values: Expr[] = [this.expr(operands[0])];
    const pending: IToken[] = [];
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const prec = PRECEDENCE[op.image]!;
      while (pending.length > 0 && PRECEDENCE[pending[pending.length - 1]!.image]! >= prec) reduceBinary(values, pending);
      pending.push(op);
      values.push(this.expr(operands[i + 1]));
    }
    while (pending.length > 0) reduceBinary(values, pending);
    return values[0]!;
  }

  unaryExpression(c: Children): Expr {
    let e = this.expr(node(c, 'primaryExpression'));
    for (const s of nodes(c, 'postfixSuffix')) {
      const sc = s.children as Children;
      const member = tok(sc, 'member');
      if (member !== undefined) {
        if (tok(sc, 'methodCall') === undefined) e = { kind: 'member', object: e, member: member.image, loc: locOf(member) };
        else {
          if (member.image !== 'length') this.diagnostics.push({ loc: locOf(member), message: `'${member.image}' is not a method (only .length() can be called on a value)` });
          e = { kind: 'lengthOf', object: e, loc: locOf(member) };
        }
        continue;
      }
      const bracket = tok(sc, 'LBracket');
      if (bracket !== undefined) {
        e = { kind: 'index', object: e, index: this.expr(node(sc, 'expression')), loc: locOf(bracket) };
        continue;
      }
      const inc = tok(sc, 'PlusPlus') ?? tok(sc, 'MinusMinus')!;
      e = { kind: 'unary', op: inc.image === '++' ? 'post++' : 'post--', operand: e, loc: locOf(inc) };
    }
    // Prefix operators bind looser than postfix ones: apply them innermost (rightmost) first.
    const prefix = tokens(c, 'PrefixOperator');
    for (let i = prefix.length - 1; i >= 0; i--) {
      const op = prefix[i]!;
      const name = op.image === '++' ? 'pre++' : op.image === '--' ? 'pre--' : op.image;
      e = { kind: 'unary', op: name as UnaryOperator, operand: e, loc: locOf(op) };
    }
    return e;
  }

  postfixSuffix(_c: Children): never {
    throw new Error('postfixSuffix is visited by postfixExpression');
  }

  primaryExpression(c: Children): Expr {
    const int = tok(c, 'IntLiteral');
    if (int !== undefined) return { kind: 'intLit', text: int.image, loc: locOf(int) };
    const fl = tok(c, 'FloatLiteral');
    if (fl !== undefined) return { kind: 'floatLit', text: fl.image, loc: locOf(fl) };
    const str = tok(c, 'StringLiteral');
    if (str !== undefined) return { kind: 'stringLit', value: str.image.slice(1, -1), loc: locOf(str) };
    const t = tok(c, 'True') ?? tok(c, 'False');
    if (t !== undefined) return { kind: 'boolLit', value: t.image === 'true', loc: locOf(t) };
    if (tok(c, 'paren') !== undefined) return this.expr(node(c, 'expression'));
    const id = tok(c, 'Identifier');
    if (id !== undefined) {
      if (tok(c, 'call') === undefined) {
        const chunk = this.holes.size > 0 ? this.holes.get(id) : undefined;
        if (chunk === undefined) return { kind: 'ident', name: id.image, loc: locOf(id) };
        if (!Array.isArray(chunk) && isExpr(chunk)) return chunk;
        const standIn: Expr = { kind: 'ident', name: id.image, loc: locOf(id) };
        this.standIns.set(standIn, chunk);
        return standIn;
      }
      return { kind: 'call', callee: id.image, args: this.visit(node(c, 'callArguments')!) as Expr[], loc: locOf(id) };
    }
    const nu = tok(c, 'NonUniform');
    if (nu !== undefined) return { kind: 'call', callee: nu.image, args: this.visit(node(c, 'callArguments')!) as Expr[], loc: locOf(nu) };
    const type = tok(c, 'TypeName')!;
    const calleeType: TypeSpec = { name: type.image, arrayDims: nodes(c, 'arraySpecifier').map((a) => this.visit(a) as Expr | null), loc: locOf(type) };
    return { kind: 'call', callee: type.image, calleeType, args: this.visit(node(c, 'callArguments')!) as Expr[], loc: locOf(type) };
  }

  callArguments(c: Children): Expr[] {
    const args = nodes(c, 'assignmentExpression').map((a) => this.expr(a));
    if (args.length === 1) {
      const chunk = this.standIns.get(args[0]!);
      if (Array.isArray(chunk)) return chunk;
    }
    return args;
  }
}

const STATEMENT_KINDS: ReadonlySet<string> = new Set<Stmt['kind']>([
  'compound', 'declStmt', 'exprStmt', 'if', 'switch', 'for', 'while', 'doWhile', 'break', 'continue', 'discard', 'return', 'terminateRay', 'ignoreIntersection', 'empty',
]);

function isExpr(x: Expr | Stmt): x is Expr {
  return !STATEMENT_KINDS.has(x.kind);
}

function reduceBinary(values: Expr[], pending: IToken[]): void {
  const op = pending.pop()!;
  const right = values.pop()!;
  const left = values.pop()!;
  values.push({ kind: 'binary', op: op.image as BinaryOperator, left, right, loc: locOf(op) });
}

function emptyQualifiers(loc: Loc): Qualifiers {
  return { layout: [], memory: [], loc };
}

/** One builder instance, like the parser. */
export const astBuilder = new AstBuilder();
