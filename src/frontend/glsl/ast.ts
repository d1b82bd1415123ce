/**
 * The GLSL abstract syntax tree: what the parser's CST visitor builds and semantic analysis reads.
 * Purely syntactic — no types resolved, no names bound. Every node has `loc` pointing into the
 * original source file (after preprocessing, through #include and #line).
 */
import type { Loc } from '../../ir/inst.js';

/** A type as written: a name (`vec3`, `uint64_t`, `MyStruct`, `sampler2D`) plus array dimensions. */
export interface TypeSpec {
  name: string;
  /** Inline struct definition (`struct S { ... } x;`); `name` is then the struct's name (or ''). */
  struct?: StructDecl;
  /** Array dimensions written on the type (`float[3] a`); `null` = unsized (`[]`). */
  arrayDims: (Expr | null)[];
  loc: Loc;
}

/** One `layout(...)` entry: `set = 0`, `std430`, `rgba8`, `push_constant`, `buffer_reference_align = 8`. */
export interface LayoutQualifier {
  name: string;
  value?: Expr;
  loc: Loc;
}

/**
 * All qualifiers that can precede a declaration. `storage` is the GLSL storage qualifier
 * (`rayPayloadEXT` etc. included). Memory qualifiers and precision are kept as flags.
 */
export interface Qualifiers {
  storage?:
    | 'const' | 'in' | 'out' | 'inout' | 'uniform' | 'buffer' | 'shared'
    | 'rayPayloadEXT' | 'rayPayloadInEXT' | 'hitAttributeEXT' | 'callableDataEXT' | 'callableDataInEXT' | 'shaderRecordEXT';
  layout: LayoutQualifier[];
  memory: ('readonly' | 'writeonly' | 'coherent' | 'volatile' | 'restrict')[];
  precision?: 'highp' | 'mediump' | 'lowp';
  invariant?: boolean;
  precise?: boolean;
  nonuniform?: boolean;
  interpolation?: 'flat' | 'smooth' | 'noperspective';
  loc: Loc;
}

export interface StructMemberDecl {
  qualifiers: Qualifiers;
  type: TypeSpec;
  name: string;
  /** Array dimensions written after the member name; `null` = unsized (runtime array). */
  arrayDims: (Expr | null)[];
  loc: Loc;
}

export interface StructDecl {
  kind: 'struct';
  name: string;
  members: StructMemberDecl[];
  loc: Loc;
}

/** `qualifiers Type a = 1, b[2] = {...};` — also `const`, `uniform accelerationStructureEXT tlas;`. */
export interface VarDeclarator {
  name: string;
  arrayDims: (Expr | null)[];
  init?: Expr;
  loc: Loc;
}

export interface VarDecl {
  kind: 'var';
  qualifiers: Qualifiers;
  type: TypeSpec;
  declarators: VarDeclarator[];
  loc: Loc;
}

/** `layout(...) uniform|buffer|shaderRecordEXT|rayPayloadEXT... BlockName { members } instance[dims];` */
export interface BlockDecl {
  kind: 'block';
  qualifiers: Qualifiers;
  blockName: string;
  members: StructMemberDecl[];
  instanceName?: string;
  instanceArrayDims: (Expr | null)[];
  loc: Loc;
}

export interface ParamDecl {
  qualifiers: Qualifiers; // storage: in / out / inout / const
  type: TypeSpec;
  name?: string;
  arrayDims: (Expr | null)[];
  loc: Loc;
}

export interface FunctionDecl {
  kind: 'function';
  returnType: TypeSpec;
  returnQualifiers: Qualifiers;
  name: string;
  params: ParamDecl[];
  /** Absent for a prototype. */
  body?: CompoundStmt;
  loc: Loc;
}

/** `precision highp float;` and bare qualifier declarations like `layout(local_size_x = 8) in;`. */
export interface QualifierDecl {
  kind: 'qualifierDecl';
  qualifiers: Qualifiers;
  /** For `precision P T;`. */
  type?: TypeSpec;
  /** Redeclared names (`invariant gl_Position;`). */
  names: string[];
  loc: Loc;
}

export type ExternalDecl = StructDecl | VarDecl | BlockDecl | FunctionDecl | QualifierDecl;

export interface TranslationUnit {
  /** From `#version` (defaults to 460 if absent). */
  version: number;
  /** From `#extension NAME : enable|require|warn`. */
  extensions: { name: string; behavior: string; loc: Loc }[];
  decls: ExternalDecl[];
}

// ---------------------------------------------------------------- statements

/** `[[unroll]]`, `[[dont_unroll]]`, `[[flatten]]`, ... (GL_EXT_control_flow_attributes). */
export interface Attribute {
  name: string;
  args: Expr[];
  loc: Loc;
}

export interface CompoundStmt {
  kind: 'compound';
  body: Stmt[];
  loc: Loc;
}

export type Stmt =
  | CompoundStmt
  | { kind: 'declStmt'; decl: VarDecl | StructDecl; loc: Loc }
  | { kind: 'exprStmt'; expr: Expr; loc: Loc }
  | { kind: 'empty'; loc: Loc }
  | { kind: 'if'; cond: Expr; then: Stmt; else?: Stmt; attributes: Attribute[]; loc: Loc }
  /** `init` is a declaration or expression statement (or empty); `cond` may be a declaration-free expression. */
  | { kind: 'for'; init?: Stmt; cond?: Expr; step?: Expr; body: Stmt; attributes: Attribute[]; loc: Loc }
  | { kind: 'while'; cond: Expr; body: Stmt; attributes: Attribute[]; loc: Loc }
  | { kind: 'doWhile'; body: Stmt; cond: Expr; attributes: Attribute[]; loc: Loc }
  /** Cases in source order; each label starts a case (fall-through between them unless `break`). */
  | { kind: 'switch'; selector: Expr; body: SwitchCase[]; attributes: Attribute[]; loc: Loc }
  | { kind: 'break'; loc: Loc }
  | { kind: 'continue'; loc: Loc }
  | { kind: 'return'; value?: Expr; loc: Loc }
  /** `discard;` (rejected in ray tracing stages by semantic analysis) and the RT jump statements of GLSL_EXT_ray_tracing. */
  | { kind: 'discard'; loc: Loc }
  | { kind: 'ignoreIntersection'; loc: Loc }
  | { kind: 'terminateRay'; loc: Loc };

/** `labels`: one or more `case X:` / `default:` (null = default) followed by statements. */
export interface SwitchCase {
  labels: (Expr | null)[];
  body: Stmt[];
  loc: Loc;
}

// ---------------------------------------------------------------- expressions

export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '<<=' | '>>=' | '&=' | '|=' | '^=';
export type BinaryOperator =
  | '+' | '-' | '*' | '/' | '%' | '<<' | '>>' | '&' | '|' | '^' | '&&' | '||' | '^^'
  | '==' | '!=' | '<' | '<=' | '>' | '>=';
export type UnaryOperator = '-' | '+' | '!' | '~' | 'pre++' | 'pre--' | 'post++' | 'post--';

export type Expr =
  | { kind: 'ident'; name: string; loc: Loc }
  /** `text` is the literal as written (suffixes kept: `1u`, `2.0f`, `0x10`, `3lf`, `1ul`). */
  | { kind: 'intLit'; text: string; loc: Loc }
  | { kind: 'floatLit'; text: string; loc: Loc }
  | { kind: 'boolLit'; value: boolean; loc: Loc }
  /** `"..."` (only as the format argument of debugPrintfEXT); `value` is the text between the quotes, as written. */
  | { kind: 'stringLit'; value: string; loc: Loc }
  | { kind: 'binary'; op: BinaryOperator; left: Expr; right: Expr; loc: Loc }
  | { kind: 'unary'; op: UnaryOperator; operand: Expr; loc: Loc }
  | { kind: 'assign'; op: AssignOp; target: Expr; value: Expr; loc: Loc }
  | { kind: 'ternary'; cond: Expr; then: Expr; else: Expr; loc: Loc }
  | { kind: 'comma'; exprs: Expr[]; loc: Loc }
  /** `a.b`: struct member, swizzle, or `.length` when followed by a call with no args (see `lengthOf`). */
  | { kind: 'member'; object: Expr; member: string; loc: Loc }
  | { kind: 'index'; object: Expr; index: Expr; loc: Loc }
  /**
   * A call: `callee` is a function name, a built-in, or a constructor type (`vec3(...)`,
   * `float[3](...)`, `MyStruct(...)`). Array constructors carry dims in `calleeType`.
   */
  | { kind: 'call'; callee: string; calleeType?: TypeSpec; args: Expr[]; loc: Loc }
  /** `x.length()` on arrays and vectors. */
  | { kind: 'lengthOf'; object: Expr; loc: Loc }
  /** `{a, b, c}` initializer list (GL_ARB_shading_language_420pack), only as an initializer. */
  | { kind: 'initList'; items: Expr[]; loc: Loc };
