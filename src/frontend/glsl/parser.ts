/**
 * The GLSL 4.60 grammar (Vulkan ray tracing subset and more) as a chevrotain CstParser. It only
 * recognises; `ast-builder.ts` turns the CST into the AST.
 *
 * Decisions worth knowing:
 * - Binary operators of all levels are parsed flat (`unary (op unary)*`) inside the assignment
 *   rule; the AST builder applies GLSL precedence. Few rules per expression leaf = a fast parser.
 * - "identifier identifier starts a declaration": the driver retypes names of declared structs and
 *   buffer_reference blocks to `UserTypeName` before parsing. A statement is a declaration when it
 *   starts with a qualifier, `struct`, a type name not followed by a constructor's `(` (after
 *   optional `[...]`), or two identifiers (an undeclared type: semantic analysis names it) —
 *   decided by the `startsDeclaration` gate; otherwise it is an expression statement.
 * - Input tokens' `startOffset` is their index in the input vector (the preprocessor sets it),
 *   so CST node offsets index the token vector.
 * Invariant: one instance is reused (`glslParser`); parse with `parseTranslationUnit`.
 */
import type { CstNode, IOrAlt, IToken, OrMethodOpts, TokenType } from 'chevrotain';
import { CstParser, EOF } from './chevrotain.js';
import {
  allTokenTypes, Assign, AssignOperator, AuxiliaryQualifier, BinaryOperatorToken, Break, BuiltinType, Case, Colon,
  Comma, Continue, Default, Discard, Do, Dot, Else, False, FloatLiteral, For, Identifier, If, IgnoreIntersection,
  IntLiteral, InterpolationQualifier, Invariant, Layout, LBracket, LCurly, LParen, MemoryQualifier, MinusMinus,
  NonUniform, PlusPlus, Precise, Precision, PrecisionQualifier, PrefixOperator, Question, RBracket, RCurly,
  Return, RParen, Semicolon, StorageQualifier, StringLiteral, Struct, Switch, TerminateRay, True, TypeName, UserTypeName, Void,
  While,
} from './tokens.js';
import { errorMessages } from './parser-messages.js';

const QUALIFIER_TOKENS: ReadonlySet<TokenType> = new Set([
  StorageQualifier, MemoryQualifier, PrecisionQualifier, InterpolationQualifier, AuxiliaryQualifier, Layout, Invariant, Precise,
]);

export class GlslParser extends CstParser {
  /**
   * `validateGrammar`: run chevrotain's grammar checks (ambiguities, left recursion, unreachable
   * alternatives) in the self-analysis. They find nothing in a grammar that passed them once and
   * cost about half of the parser's construction, which every GLSL compile pays at start (issue
   * 25), so the shared instance skips them and test/frontend/glsl/parser-grammar.test.ts runs them.
   */
  constructor(validateGrammar = false) {
    super(allTokenTypes, {
      recoveryEnabled: true, maxLookahead: 3, nodeLocationTracking: 'onlyOffset', errorMessageProvider: errorMessages,
      skipValidations: !validateGrammar,
    });
    this.performSelfAnalysis();
  }

  /** Gate: does the statement at LA(1) declare variables (rather than compute an expression)? */
  private startsDeclaration(): boolean {
    const t = this.LA(1).tokenType;
    if (QUALIFIER_TOKENS.has(t) || t === Struct) return true;
    if (t === NonUniform) return this.LA(2).tokenType !== LParen;
    if (t === Identifier) return this.LA(2).tokenType === Identifier; // an undeclared type name
    if (t !== BuiltinType && t !== UserTypeName) return false;
    let i = 2;
    while (this.LA(i).tokenType === LBracket) {
      let depth = 0;
      for (;;) {
        const k = this.LA(i).tokenType;
        if (k === EOF) return false;
        if (k === LBracket) depth++;
        else if (k === RBracket && --depth === 0) break;
        i++;
      }
      i++;
    }
    // Anything but a constructor call (`vec3(...)`, `float[2](...)`) after a type is a declaration, so
    // `float = 1;` is reported as a missing name rather than as a puzzling expression.
    return this.LA(i).tokenType !== LParen;
  }

  /**
   * Alternatives of each OR, built on first use: a fresh array of closures per call is measurable
   * garbage (and, under tsx, a `__name` call per closure) on a 10k-token shader.
   */
  private readonly alternatives: (IOrAlt<unknown>[] | OrMethodOpts<unknown>)[] = [];

  /** '}' with no opener at file scope, collected so parsing can go on after them. */
  strayTokens: IToken[] = [];

  /** Parses a whole shader from `tokens`; errors are in `errors` and `strayTokens`. */
  parseTranslationUnit(tokens: IToken[]): CstNode {
    this.input = tokens;
    this.strayTokens = [];
    return this.translationUnit();
  }

  /** Parses a chunk of a deeply nested shader (deep-nesting.ts) with the rule its kind names. */
  parseChunk(tokens: IToken[], kind: 'expression' | 'arguments' | 'block'): CstNode {
    this.input = tokens;
    this.strayTokens = [];
    return kind === 'expression' ? this.expression() : kind === 'arguments' ? this.callArguments() : this.compoundStatement();
  }

  translationUnit = this.RULE('translationUnit', () => {
    this.MANY(() => {
      this.OR((this.alternatives[0] ??= [
        { ALT: () => this.SUBRULE(this.externalDeclaration) },
        {
          // Only '}': a stray ')' or ']' alternative here would make error recovery inside functions
          // resynchronise at file scope (they would be in the follow set of the whole stack).
          ALT: () => {
            const t = this.CONSUME(RCurly, { LABEL: 'stray' });
            this.ACTION(() => this.strayTokens.push(t));
          },
        },
      ]));
    });
  });

  externalDeclaration = this.RULE('externalDeclaration', () => {
    // A lone ';' is a `declaration` with no qualifiers.
    this.OR((this.alternatives[1] ??= [
      { ALT: () => this.SUBRULE(this.precisionDeclaration) },
      { ALT: () => this.SUBRULE(this.declaration) },
    ]));
  });

  precisionDeclaration = this.RULE('precisionDeclaration', () => {
    this.CONSUME(Precision);
    this.CONSUME(PrecisionQualifier);
    this.SUBRULE(this.typeSpecifier);
    this.CONSUME(Semicolon);
  });

  /** Any file-scope declaration: variables, blocks, structs, functions, bare qualifiers. */
  declaration = this.RULE('declaration', () => {
    this.OPTION(() => this.SUBRULE(this.typeQualifiers));
    this.OR((this.alternatives[2] ??= [
      { ALT: () => this.SUBRULE(this.blockDeclaration) },
      { ALT: () => this.CONSUME(Semicolon) },
      {
        // `invariant gl_Position;` — a qualifier applied to names declared elsewhere. Chosen before the
        // type alternative, whose `Foo;` reading (undeclared type, no declarator) is never meant.
        IGNORE_AMBIGUITIES: true,
        ALT: () => {
          this.CONSUME(Identifier, { LABEL: 'names' });
          this.MANY(() => {
            this.CONSUME(Comma);
            this.CONSUME2(Identifier, { LABEL: 'names' });
          });
          this.CONSUME2(Semicolon);
        },
      },
      {
        ALT: () => {
          this.SUBRULE(this.typeSpecifier);
          this.OR2((this.alternatives[21] ??= [
            { ALT: () => this.CONSUME3(Semicolon) },
            { ALT: () => this.SUBRULE(this.functionDefinition) },
            {
              ALT: () => {
                this.SUBRULE(this.initDeclaratorList);
                this.CONSUME4(Semicolon);
              },
            },
          ]));
        },
      },
    ]));
  });

  typeQualifiers = this.RULE('typeQualifiers', () => {
    this.AT_LEAST_ONE(() => {
      this.OR((this.alternatives[3] ??= [
        { ALT: () => this.SUBRULE(this.layoutQualifier) },
        { ALT: () => this.CONSUME(StorageQualifier) },
        { ALT: () => this.CONSUME(MemoryQualifier) },
        { ALT: () => this.CONSUME(PrecisionQualifier) },
        { ALT: () => this.CONSUME(InterpolationQualifier) },
        { ALT: () => this.CONSUME(AuxiliaryQualifier) },
        { ALT: () => this.CONSUME(Invariant) },
        { ALT: () => this.CONSUME(Precise) },
        { ALT: () => this.CONSUME(NonUniform) },
      ]));
    });
  });

  layoutQualifier = this.RULE('layoutQualifier', () => {
    this.CONSUME(Layout);
    this.CONSUME(LParen);
    this.SUBRULE(this.layoutEntry);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.layoutEntry);
    });
    this.CONSUME(RParen);
  });

  layoutEntry = this.RULE('layoutEntry', () => {
    this.OR((this.alternatives[4] ??= [
      { ALT: () => this.CONSUME(Identifier, { LABEL: 'name' }) },
      { ALT: () => this.CONSUME(StorageQualifier, { LABEL: 'name' }) }, // layout(shared)
    ]));
    this.OPTION(() => {
      this.CONSUME(Assign);
      this.SUBRULE(this.conditionalExpression);
    });
  });

  typeSpecifier = this.RULE('typeSpecifier', () => {
    this.OR((this.alternatives[5] ??= [
      { ALT: () => this.CONSUME(BuiltinType, { LABEL: 'name' }) },
      { ALT: () => this.CONSUME(UserTypeName, { LABEL: 'name' }) },
      { ALT: () => this.CONSUME(Void, { LABEL: 'name' }) },
      { ALT: () => this.SUBRULE(this.structSpecifier) },
      {
        // `Foo x` with an undeclared Foo: parse it as a type so semantic analysis can say "unknown type 'Foo'".
        GATE: () => this.LA(2).tokenType === Identifier,
        ALT: () => this.CONSUME(Identifier, { LABEL: 'name' }),
      },
    ]));
    this.MANY(() => this.SUBRULE(this.arraySpecifier));
  });

  structSpecifier = this.RULE('structSpecifier', () => {
    this.CONSUME(Struct);
    this.OPTION(() => {
      this.OR((this.alternatives[6] ??= [
        { ALT: () => this.CONSUME(Identifier, { LABEL: 'name' }) },
        { ALT: () => this.CONSUME(UserTypeName, { LABEL: 'name' }) },
      ]));
    });
    this.CONSUME(LCurly);
    this.AT_LEAST_ONE(() => this.SUBRULE(this.structMember));
    this.CONSUME(RCurly);
  });

  structMember = this.RULE('structMember', () => {
    this.OPTION(() => this.SUBRULE(this.typeQualifiers));
    this.SUBRULE(this.typeSpecifier);
    this.SUBRULE(this.structDeclarator);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.structDeclarator);
    });
    this.CONSUME(Semicolon);
  });

  structDeclarator = this.RULE('structDeclarator', () => {
    this.CONSUME(Identifier);
    this.MANY(() => this.SUBRULE(this.arraySpecifier));
  });

  arraySpecifier = this.RULE('arraySpecifier', () => {
    this.CONSUME(LBracket);
    this.OPTION(() => this.SUBRULE(this.conditionalExpression));
    this.CONSUME(RBracket);
  });

  blockDeclaration = this.RULE('blockDeclaration', () => {
    this.OR((this.alternatives[7] ??= [
      { ALT: () => this.CONSUME(Identifier, { LABEL: 'blockName' }) },
      { ALT: () => this.CONSUME(UserTypeName, { LABEL: 'blockName' }) },
    ]));
    this.CONSUME(LCurly);
    this.AT_LEAST_ONE(() => this.SUBRULE(this.structMember));
    this.CONSUME(RCurly);
    this.OPTION(() => {
      this.CONSUME2(Identifier, { LABEL: 'instanceName' });
      this.MANY(() => this.SUBRULE(this.arraySpecifier));
    });
    this.CONSUME(Semicolon);
  });

  functionDefinition = this.RULE('functionDefinition', () => {
    this.CONSUME(Identifier, { LABEL: 'name' });
    this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.parameterDeclaration);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.parameterDeclaration);
      });
    });
    this.CONSUME(RParen);
    this.OR((this.alternatives[8] ??= [
      { ALT: () => this.SUBRULE(this.compoundStatement) },
      { ALT: () => this.CONSUME(Semicolon) },
    ]));
  });

  parameterDeclaration = this.RULE('parameterDeclaration', () => {
    this.OPTION(() => this.SUBRULE(this.typeQualifiers));
    this.SUBRULE(this.typeSpecifier);
    this.OPTION2(() => {
      this.CONSUME(Identifier, { LABEL: 'name' });
      this.MANY(() => this.SUBRULE(this.arraySpecifier));
    });
  });

  initDeclaratorList = this.RULE('initDeclaratorList', () => {
    this.SUBRULE(this.initDeclarator);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.initDeclarator);
    });
  });

  initDeclarator = this.RULE('initDeclarator', () => {
    this.CONSUME(Identifier, { LABEL: 'name' });
    this.MANY(() => this.SUBRULE(this.arraySpecifier));
    this.OPTION(() => {
      this.CONSUME(Assign);
      this.SUBRULE(this.initializer);
    });
  });

  initializer = this.RULE('initializer', () => {
    this.OR((this.alternatives[9] ??= [
      { ALT: () => this.SUBRULE(this.assignmentExpression) },
      { ALT: () => this.SUBRULE(this.initializerList) },
    ]));
  });

  initializerList = this.RULE('initializerList', () => {
    this.CONSUME(LCurly);
    this.SUBRULE(this.initializer);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.initializer);
    });
    this.OPTION(() => this.CONSUME2(Comma, { LABEL: 'trailingComma' }));
    this.CONSUME(RCurly);
  });

  // ------------------------------------------------------------ statements

  statement = this.RULE('statement', () => {
    this.OR((this.alternatives[10] ??= {
      // Declarations and constructor-call expressions both start with a type name; the gate decides.
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => this.SUBRULE(this.compoundStatement) },
        { GATE: () => this.startsDeclaration(), ALT: () => this.SUBRULE(this.declarationStatement) },
        { ALT: () => this.SUBRULE(this.controlStatement) },
        { ALT: () => this.SUBRULE(this.jumpStatement) },
        { ALT: () => this.SUBRULE(this.precisionDeclaration) },
        { ALT: () => this.CONSUME(Semicolon, { LABEL: 'empty' }) },
        { ALT: () => this.SUBRULE(this.expressionStatement) },
      ],
    }));
  });

  compoundStatement = this.RULE('compoundStatement', () => {
    this.CONSUME(LCurly);
    this.MANY(() => this.SUBRULE(this.statement));
    this.CONSUME(RCurly);
  });

  declarationStatement = this.RULE('declarationStatement', () => {
    this.OPTION(() => this.SUBRULE(this.typeQualifiers));
    this.SUBRULE(this.typeSpecifier);
    this.OPTION2(() => this.SUBRULE(this.initDeclaratorList));
    this.CONSUME(Semicolon);
  });

  controlStatement = this.RULE('controlStatement', () => {
    this.MANY(() => this.SUBRULE(this.attribute));
    this.OR((this.alternatives[11] ??= [
      { ALT: () => this.SUBRULE(this.ifStatement) },
      { ALT: () => this.SUBRULE(this.switchStatement) },
      { ALT: () => this.SUBRULE(this.forStatement) },
      { ALT: () => this.SUBRULE(this.whileStatement) },
      { ALT: () => this.SUBRULE(this.doWhileStatement) },
    ]));
  });

  /** `[[unroll, dependency_length(4)]]` (GL_EXT_control_flow_attributes). */
  attribute = this.RULE('attribute', () => {
    this.CONSUME(LBracket);
    this.CONSUME2(LBracket);
    this.SUBRULE(this.attributeEntry);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.attributeEntry);
    });
    this.CONSUME(RBracket);
    this.CONSUME2(RBracket);
  });

  attributeEntry = this.RULE('attributeEntry', () => {
    this.CONSUME(Identifier, { LABEL: 'name' });
    this.OPTION(() => {
      this.CONSUME(LParen);
      this.SUBRULE(this.assignmentExpression);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.assignmentExpression);
      });
      this.CONSUME(RParen);
    });
  });

  ifStatement = this.RULE('ifStatement', () => {
    this.CONSUME(If);
    this.CONSUME(LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(RParen);
    this.SUBRULE(this.statement, { LABEL: 'then' });
    this.OPTION(() => {
      this.CONSUME(Else);
      this.SUBRULE2(this.statement, { LABEL: 'else' });
    });
  });

  switchStatement = this.RULE('switchStatement', () => {
    this.CONSUME(Switch);
    this.CONSUME(LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(RParen);
    this.CONSUME(LCurly);
    this.MANY(() => this.SUBRULE(this.switchItem));
    this.CONSUME(RCurly);
  });

  /** One rule for labels and statements so the CST keeps their order. */
  switchItem = this.RULE('switchItem', () => {
    this.OR((this.alternatives[12] ??= [
      { ALT: () => this.SUBRULE(this.caseLabel) },
      { ALT: () => this.SUBRULE(this.statement) },
    ]));
  });

  caseLabel = this.RULE('caseLabel', () => {
    this.OR((this.alternatives[13] ??= [
      {
        ALT: () => {
          this.CONSUME(Case);
          this.SUBRULE(this.expression);
        },
      },
      { ALT: () => this.CONSUME(Default) },
    ]));
    this.CONSUME(Colon);
  });

  forStatement = this.RULE('forStatement', () => {
    this.CONSUME(For);
    this.CONSUME(LParen);
    this.SUBRULE(this.forInit);
    this.OPTION(() => this.SUBRULE(this.expression, { LABEL: 'cond' }));
    this.CONSUME(Semicolon);
    this.OPTION2(() => this.SUBRULE2(this.expression, { LABEL: 'step' }));
    this.CONSUME(RParen);
    this.SUBRULE(this.statement, { LABEL: 'body' });
  });

  forInit = this.RULE('forInit', () => {
    this.OR((this.alternatives[14] ??= {
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { GATE: () => this.startsDeclaration(), ALT: () => this.SUBRULE(this.declarationStatement) },
        { ALT: () => this.CONSUME(Semicolon, { LABEL: 'empty' }) },
        { ALT: () => this.SUBRULE(this.expressionStatement) },
      ],
    }));
  });

  whileStatement = this.RULE('whileStatement', () => {
    this.CONSUME(While);
    this.CONSUME(LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(RParen);
    this.SUBRULE(this.statement);
  });

  doWhileStatement = this.RULE('doWhileStatement', () => {
    this.CONSUME(Do);
    this.SUBRULE(this.statement);
    this.CONSUME(While);
    this.CONSUME(LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(RParen);
    this.CONSUME(Semicolon);
  });

  jumpStatement = this.RULE('jumpStatement', () => {
    this.OR((this.alternatives[15] ??= [
      { ALT: () => this.CONSUME(Break, { LABEL: 'keyword' }) },
      { ALT: () => this.CONSUME(Continue, { LABEL: 'keyword' }) },
      { ALT: () => this.CONSUME(Discard, { LABEL: 'keyword' }) },
      { ALT: () => this.CONSUME(TerminateRay, { LABEL: 'keyword' }) },
      { ALT: () => this.CONSUME(IgnoreIntersection, { LABEL: 'keyword' }) },
      {
        ALT: () => {
          this.CONSUME(Return, { LABEL: 'keyword' });
          this.OPTION(() => this.SUBRULE(this.expression));
        },
      },
    ]));
    this.CONSUME(Semicolon);
  });

  expressionStatement = this.RULE('expressionStatement', () => {
    this.SUBRULE(this.expression);
    this.CONSUME(Semicolon);
  });

  // ------------------------------------------------------------ expressions

  expression = this.RULE('expression', () => {
    this.SUBRULE(this.assignmentExpression);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.assignmentExpression);
    });
  });

  /**
   * Assignment, conditional and binary levels in one rule (fewer CST nodes per leaf, which is most
   * of the parse time): `unary (op unary)* [? expression : assignment] [assignOp assignment]`.
   * The target of an assignment is thus parsed as a conditional expression, as in the GLSL grammar
   * after its usual relaxation; semantic analysis checks it is an l-value.
   */
  assignmentExpression = this.RULE('assignmentExpression', () => {
    this.SUBRULE(this.unaryExpression);
    this.MANY(() => {
      this.CONSUME(BinaryOperatorToken);
      this.SUBRULE2(this.unaryExpression);
    });
    this.OPTION(() => {
      this.CONSUME(Question);
      this.SUBRULE(this.expression);
      this.CONSUME(Colon);
      this.SUBRULE(this.assignmentExpression, { LABEL: 'else' });
    });
    this.OPTION2(() => {
      this.CONSUME(AssignOperator);
      this.SUBRULE2(this.assignmentExpression, { LABEL: 'value' });
    });
  });

  /** Constant-expression contexts (array sizes, layout values): no assignment at the top. */
  conditionalExpression = this.RULE('conditionalExpression', () => {
    this.SUBRULE(this.unaryExpression);
    this.MANY(() => {
      this.CONSUME(BinaryOperatorToken);
      this.SUBRULE2(this.unaryExpression);
    });
    this.OPTION(() => {
      this.CONSUME(Question);
      this.SUBRULE(this.expression);
      this.CONSUME(Colon);
      this.SUBRULE(this.assignmentExpression, { LABEL: 'else' });
    });
  });

  /** Prefix operators apply to a postfix expression: `-a[i]` is `-(a[i])`, `++s.x` is `++(s.x)`. */
  unaryExpression = this.RULE('unaryExpression', () => {
    this.MANY(() => this.CONSUME(PrefixOperator));
    this.SUBRULE(this.primaryExpression);
    this.MANY2(() => this.SUBRULE(this.postfixSuffix));
  });

  postfixSuffix = this.RULE('postfixSuffix', () => {
    this.OR((this.alternatives[17] ??= [
      {
        ALT: () => {
          this.CONSUME(LBracket);
          this.SUBRULE(this.expression);
          this.CONSUME(RBracket);
        },
      },
      {
        ALT: () => {
          this.CONSUME(Dot);
          this.CONSUME(Identifier, { LABEL: 'member' });
          this.OPTION(() => {
            this.CONSUME(LParen, { LABEL: 'methodCall' });
            this.CONSUME(RParen);
          });
        },
      },
      { ALT: () => this.CONSUME(PlusPlus) },
      { ALT: () => this.CONSUME(MinusMinus) },
    ]));
  });

  primaryExpression = this.RULE('primaryExpression', () => {
    this.OR((this.alternatives[18] ??= [
      { ALT: () => this.CONSUME(IntLiteral) },
      { ALT: () => this.CONSUME(FloatLiteral) },
      { ALT: () => this.CONSUME(True) },
      { ALT: () => this.CONSUME(False) },
      { ALT: () => this.CONSUME(StringLiteral) }, // debugPrintfEXT format
      {
        ALT: () => {
          this.CONSUME(LParen, { LABEL: 'paren' });
          this.SUBRULE(this.expression);
          this.CONSUME(RParen);
        },
      },
      {
        // A variable, or a call of a function / built-in.
        ALT: () => {
          this.CONSUME(Identifier);
          this.OPTION(() => {
            this.CONSUME2(LParen, { LABEL: 'call' });
            this.SUBRULE(this.callArguments);
            this.CONSUME2(RParen);
          });
        },
      },
      {
        // `nonuniformEXT(i)` reads like a call; the AST keeps it as one.
        ALT: () => {
          this.CONSUME(NonUniform);
          this.CONSUME3(LParen);
          this.SUBRULE2(this.callArguments);
          this.CONSUME3(RParen);
        },
      },
      {
        // Constructor: `vec3(...)`, `float[3](...)`, `MyStruct(...)`.
        ALT: () => {
          this.CONSUME(TypeName);
          this.MANY(() => this.SUBRULE(this.arraySpecifier));
          this.CONSUME4(LParen);
          this.SUBRULE3(this.callArguments);
          this.CONSUME4(RParen);
        },
      },
    ]));
  });

  callArguments = this.RULE('callArguments', () => {
    this.OPTION(() => {
      this.OR((this.alternatives[19] ??= [
        { ALT: () => this.CONSUME(Void) },
        {
          ALT: () => {
            this.SUBRULE(this.assignmentExpression);
            this.MANY(() => {
              this.CONSUME(Comma);
              this.SUBRULE2(this.assignmentExpression);
            });
          },
        },
      ]));
    });
  });
}

/** The one parser instance (construction runs grammar analysis, which is slow). */
export const glslParser = new GlslParser();
