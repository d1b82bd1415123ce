/**
 * The parser's diagnostics in a shader author's words: what each grammar rule is called
 * ("expected ';' after declaration but found 'float'"), how tokens are named, and the message
 * prefixes parse.ts relocates (a missing ';' belongs after the previous token).
 */
import type { IParserErrorMessageProvider, IToken, TokenType } from 'chevrotain';
import { EOF } from './chevrotain.js';
import { BuiltinType, Case, Default, Else, Identifier, LParen, RCurly, Semicolon, UserTypeName, Void } from './tokens.js';

/** What a rule is, in the words a shader author uses ("expected ';' after declaration"). */
const RULE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  translationUnit: 'a declaration', externalDeclaration: 'a declaration', declaration: 'a declaration',
  precisionDeclaration: 'a precision declaration', typeQualifiers: 'a qualifier', layoutQualifier: 'a layout qualifier',
  layoutEntry: 'a layout qualifier name', typeSpecifier: 'a type', structSpecifier: 'a struct', structMember: 'a struct member',
  structDeclarator: 'a member name', arraySpecifier: 'an array size', blockDeclaration: 'a block',
  functionDefinition: 'a function', parameterDeclaration: 'a parameter', initDeclaratorList: 'a declaration',
  initDeclarator: 'a variable name', initializer: 'an initializer', initializerList: 'an initializer list',
  statement: 'a statement', compoundStatement: 'a statement', declarationStatement: 'a declaration',
  controlStatement: 'a statement', attribute: 'an attribute', ifStatement: 'an if statement',
  switchStatement: 'a switch statement', switchItem: "a 'case' label or statement", caseLabel: "a 'case' label",
  forStatement: 'a for loop', forInit: 'a for-loop initializer', whileStatement: 'a while loop',
  doWhileStatement: 'a do-while loop', jumpStatement: 'a statement', expressionStatement: 'an expression',
  expression: 'an expression', assignmentExpression: 'an expression', conditionalExpression: 'an expression',
  unaryExpression: 'an expression',
  postfixSuffix: 'an expression', primaryExpression: 'an expression', callArguments: 'function arguments',
};

/** Where a missing ';' belongs, by rule: "expected ';' after declaration". */
const SEMICOLON_CONTEXT: Readonly<Record<string, string>> = {
  declaration: 'after declaration', declarationStatement: 'after declaration', structMember: 'after struct member',
  blockDeclaration: 'after block declaration', precisionDeclaration: 'after declaration', functionDefinition: 'after function prototype',
  expressionStatement: 'after expression', jumpStatement: 'after statement', doWhileStatement: 'after do-while loop',
  forStatement: 'in for loop', forInit: 'in for loop',
};

export function describeToken(t: IToken): string {
  return t.tokenType === EOF ? 'end of file' : `'${t.image}'`;
}

function tokenLabel(t: TokenType): string {
  return t.LABEL ?? t.name;
}

/** Message prefixes parse.ts places specially: a missing ';' after the previous token, a missing name at the token after the type. */
export const MISSING_SEMICOLON_PREFIX = "expected ';'";
export const MISSING_NAME_PREFIX = 'expected a name after';

function isTypeNameToken(t: IToken | undefined): boolean {
  return t !== undefined && (t.tokenType === BuiltinType || t.tokenType === UserTypeName || t.tokenType === Void);
}

export const errorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, previous, ruleName }) {
    const found = describeToken(actual);
    if (expected === EOF) return `unexpected ${found} where a declaration was expected`;
    // A block's statement list stopped at something that cannot start a statement.
    if (expected === RCurly && ruleName === 'compoundStatement') {
      if (actual.tokenType === Else) return "'else' without a matching 'if'";
      if (actual.tokenType === Case || actual.tokenType === Default) return `'${actual.image}' label outside a switch`;
      if (actual.tokenType === EOF) return "expected '}' before end of file (a block is not closed)";
      return `expected a statement or '}' but found ${found}`;
    }
    if (expected === Semicolon && (ruleName === 'declarationStatement' || ruleName === 'declaration') && isTypeNameToken(previous)) {
      return `${MISSING_NAME_PREFIX} '${previous.image}' but found ${found}`;
    }
    const where = expected === Semicolon ? SEMICOLON_CONTEXT[ruleName] ?? '' : `in ${RULE_DESCRIPTIONS[ruleName] ?? ruleName}`;
    return `expected ${tokenLabel(expected)} ${where} but found ${found}`.replace(/  +/g, ' ');
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    return `unexpected ${describeToken(firstRedundant)} where a declaration was expected`;
  },
  buildNoViableAltMessage({ actual, previous, ruleName }) {
    const found = describeToken(actual[0]!);
    if (ruleName === 'declaration' && isTypeNameToken(previous) && actual[0]!.tokenType === Identifier && actual[1] !== undefined) {
      return `${MISSING_SEMICOLON_PREFIX} after declaration but found ${describeToken(actual[1])}`;
    }
    if (ruleName === 'declaration' && isTypeNameToken(previous)) return `${MISSING_NAME_PREFIX} '${previous.image}' but found ${found}`;
    if (ruleName === 'statement' && isTypeNameToken(actual[0]) && actual[1] !== undefined) {
      if (actual[1].tokenType === Identifier && actual[2]?.tokenType === LParen) {
        return "a function cannot be defined inside another function (is a '}' missing before it?)";
      }
      if (actual[1].tokenType !== Identifier) return `${MISSING_NAME_PREFIX} '${actual[0]!.image}' but found ${describeToken(actual[1])}`;
    }
    if (ruleName === 'statement' && actual[0]!.tokenType === Else) return "'else' without a matching 'if'";
    return `expected ${RULE_DESCRIPTIONS[ruleName] ?? ruleName} but found ${found}`;
  },
  buildEarlyExitMessage({ actual, ruleName }) {
    return `expected ${RULE_DESCRIPTIONS[ruleName] ?? ruleName} but found ${describeToken(actual[0]!)}`;
  },
};

