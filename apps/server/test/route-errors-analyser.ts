/**
 * Reads the server's source with the TypeScript checker and answers, for a route registered with
 * `api.get|post|put|patch|delete(path, { schema, config, handler })`, which `AppError` codes its
 * handler can raise. Nothing here names a project file or class: routes, services and ports are
 * found by what they are (a Fastify route call, an `AppError` construction, a wired dependency),
 * so routes and services may move between files.
 *
 * Rules (each errs on the side of not flagging a code that cannot be raised, short of ignoring a
 * reachable one):
 * - A code is any string-literal type of the first argument of `new AppError(...)` (a conditional
 *   or a literal-union variable gives each of its members). When that argument is a parameter of
 *   the function around it, the codes are those its caller passes (helpers such as
 *   `checkPassword(..., 'OLD_PASSWORD_WRONG')`), followed call by call.
 * - From the route's options (handler and any route-level hooks), every call and `new` is
 *   resolved through the checker to its declaration and walked, transitively, while it lies in the
 *   analysed source (library code is not walked). Functions passed as call arguments are walked too.
 * - A call that lands on a declaration without a body (an interface or type-literal method, a
 *   function-typed property: a port) is followed to what the port is wired to: the values given
 *   to that property in object literals typed by it (the `deps` a module is built with), through
 *   destructuring, constructor fields and variables, and then the method of that name on the value's
 *   type. Only when no wiring is found, the methods of that name on classes that `implements`
 *   the interface. A port never fans out to every class with a method of that name.
 * - A call given an object literal whose property has one value of a literal union (the `kind`
 *   of a discriminated union, a `purpose`) sends only that value: below it, transitively, the
 *   branch of `if (x.kind === 'other')` is skipped, and so is the rest of a block after
 *   `if (x.kind === 'sent') { ...; return }` (a sequencer's batch answers a cancel from its own
 *   branch, not from the checks of the orders placed beside it).
 * - Input schemas (`querystring`, `body`, `params`, `headers`): a result-code string literal in the
 *   schema or in the schemas and helpers it is built from (the http layer answers a validation
 *   message that is a result code with that code); a field that `.extend({...})` gives anew drops
 *   the base schema's definition of it; a helper's parameter type names no code (its callers do).
 * Limits: work that is never called from the handler (the bus, timers, jobs) is not followed;
 * dynamic dispatch through a value that is neither wired nor typed by a class is dropped; getters
 * and setters are not followed; a value computed from an argument (a flag, `mode === 2`) is not
 * followed, so both codes of `isPhone ? 'PHONE_EXISTS' : 'USERNAME_EXISTS'` count; in a recursive
 * call cycle, a function's codes are those found before the cycle closes.
 */
import path from 'node:path';
import ts from 'typescript';

export interface RouteSource {
  method: string;
  /** The paths it registers (several when the path is a loop variable over literals). */
  paths: string[];
  file: string;
  line: number;
  options: ts.ObjectLiteralExpression;
}

export interface Analysis {
  /** Every route registration found in the source. */
  routes: RouteSource[];
  /** The codes a route can answer from its input schema and its handler, each with one call path. */
  codesOf(route: RouteSource): Map<string, string>;
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const INPUT_SCHEMA_KEYS = new Set(['querystring', 'body', 'params', 'headers']);
const MAX_PORT_DEPTH = 6;

/** A program over `files`, with the compiler options of `tsconfigPath`. */
export function createProgram(files: string[], tsconfigPath: string): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    tsconfigPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${tsconfigPath}`);
  return ts.createProgram(files, { ...config.options, noEmit: true });
}

/**
 * Analyses `program`; `roots` are the folders whose code is walked (the server's and the shared
 * package's source); `resultKeys` the codes of the result table.
 */
export function analyse(program: ts.Program, roots: string[], resultKeys: ReadonlySet<string>): Analysis {
  const checker = program.getTypeChecker();
  const normalizedRoots = roots.map((root) => path.resolve(root) + path.sep);
  const inRoots = (file: ts.SourceFile) =>
    !file.isDeclarationFile && normalizedRoots.some((root) => path.resolve(file.fileName).startsWith(root));
  const sources = program.getSourceFiles().filter(inRoots);

  const where = (node: ts.Node) => {
    const file = node.getSourceFile();
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    return `${path.basename(path.dirname(file.fileName))}/${path.basename(file.fileName)}:${line + 1}`;
  };

  const resolveAlias = (symbol: ts.Symbol | undefined) =>
    symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;

  // --- route registrations -------------------------------------------------------------------
  const routes: RouteSource[] = [];
  const isFastify = (expression: ts.Expression) => {
    const type = checker.getTypeAtLocation(expression);
    const text = checker.typeToString(type);
    return /^Fastify\w*Instance\b/.test(text) || type.getProperty('register') !== undefined;
  };
  for (const file of sources) {
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        HTTP_METHODS.has(node.expression.name.text) &&
        node.arguments.length >= 2 &&
        ts.isObjectLiteralExpression(node.arguments[1]) &&
        isFastify(node.expression.expression)
      ) {
        const pathType = checker.getTypeAtLocation(node.arguments[0]);
        const paths = (pathType.isUnion() ? pathType.types : [pathType])
          .filter((member): member is ts.StringLiteralType => member.isStringLiteral())
          .map((member) => member.value);
        routes.push({
          method: node.expression.name.text.toUpperCase(),
          paths,
          file: file.fileName,
          line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1,
          options: node.arguments[1],
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  // --- wiring of ports: object-literal properties by name ---------------------------------------
  const literalProperties = new Map<string, ts.ObjectLiteralElementLike[]>();
  const newExpressions: ts.NewExpression[] = [];
  const classes: ts.ClassDeclaration[] = [];
  for (const file of sources) {
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node)) newExpressions.push(node);
      if (ts.isClassDeclaration(node)) classes.push(node);
      if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && node.name) {
        const name = ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : undefined;
        if (name) {
          const list = literalProperties.get(name) ?? [];
          list.push(node);
          literalProperties.set(name, list);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  const sameSymbol = (a: ts.Symbol | undefined, b: ts.Symbol) => {
    if (!a) return false;
    if (a === b) return true;
    const aDecls = a.declarations ?? [];
    return (b.declarations ?? []).some((decl) => aDecls.includes(decl));
  };

  /** The expressions whose values flow into `symbol` (a property, field, variable or binding). */
  const valuesOf = (symbol: ts.Symbol, depth: number, seen: Set<ts.Symbol>): ts.Expression[] => {
    if (depth > MAX_PORT_DEPTH || seen.has(symbol)) return [];
    seen.add(symbol);
    const values: ts.Expression[] = [];
    for (const decl of symbol.declarations ?? []) {
      if (ts.isPropertySignature(decl) || (ts.isPropertyDeclaration(decl) && !decl.initializer)) {
        if (ts.isPropertyDeclaration(decl) && ts.isClassLike(decl.parent)) {
          // a class field: what the class assigns to it
          const visit = (node: ts.Node): void => {
            if (
              ts.isBinaryExpression(node) &&
              node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
              (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left)) &&
              node.left.expression.kind === ts.SyntaxKind.ThisKeyword &&
              sameSymbol(checker.getSymbolAtLocation(node.left), symbol)
            ) {
              values.push(node.right);
            }
            ts.forEachChild(node, visit);
          };
          ts.forEachChild(decl.parent, visit);
          continue;
        }
        // a property of a deps/options type: the object literals that give it
        for (const element of literalProperties.get(symbol.name) ?? []) {
          const literal = element.parent;
          if (!ts.isObjectLiteralExpression(literal)) continue;
          const contextual = checker.getContextualType(literal);
          const property = contextual?.getProperty(symbol.name);
          const matches =
            sameSymbol(property, symbol) ||
            (contextual?.isUnionOrIntersection() &&
              contextual.types.some((type) => sameSymbol(type.getProperty(symbol.name), symbol)));
          if (!matches) continue;
          values.push(
            ts.isPropertyAssignment(element) ? element.initializer : (element.name as ts.Identifier),
          );
        }
      } else if (ts.isPropertyDeclaration(decl) && decl.initializer) {
        values.push(decl.initializer);
      } else if (ts.isParameter(decl) && ts.isParameterPropertyDeclaration(decl, decl.parent)) {
        // a constructor's parameter property: the arguments of `new` of that class
        const index = decl.parent.parameters.indexOf(decl);
        const klass = decl.parent.parent;
        if (ts.isClassLike(klass) && klass.name) {
          const classSymbol = checker.getSymbolAtLocation(klass.name);
          for (const node of newExpressions) {
            if (
              classSymbol &&
              node.arguments?.[index] &&
              sameSymbol(resolveAlias(checker.getSymbolAtLocation(node.expression)), classSymbol)
            ) {
              values.push(node.arguments[index]);
            }
          }
        }
      } else if (ts.isBindingElement(decl)) {
        const pattern = decl.parent;
        const name = (decl.propertyName ?? decl.name) as ts.Node;
        const key = ts.isIdentifier(name) ? name.text : undefined;
        const holder = pattern.parent;
        if (key && ts.isObjectBindingPattern(pattern)) {
          const holderType = checker.getTypeAtLocation(holder);
          const property = holderType.getProperty(key);
          if (property) values.push(...valuesOf(property, depth + 1, seen));
        }
      } else if (ts.isVariableDeclaration(decl) && decl.initializer) {
        values.push(decl.initializer);
      }
    }
    return values;
  };

  /** What `expression` is, as function-like declarations to walk or types to look a method up on. */
  const implementationsOf = (
    expression: ts.Expression,
    member: string | undefined,
    depth: number,
    seen: Set<ts.Symbol>,
  ): ts.SignatureDeclaration[] => {
    const found: ts.SignatureDeclaration[] = [];
    let target = expression;
    while (
      ts.isParenthesizedExpression(target) ||
      ts.isAsExpression(target) ||
      ts.isNonNullExpression(target)
    ) {
      target = target.expression;
    }
    if (member === undefined && (ts.isArrowFunction(target) || ts.isFunctionExpression(target))) {
      return [target];
    }
    if (member !== undefined) {
      const property = checker.getTypeAtLocation(target).getProperty(member);
      const withBody = (property?.declarations ?? []).filter(hasBody);
      if (withBody.length > 0) return withBody as ts.SignatureDeclaration[];
    } else {
      const withBody = (resolveAlias(checker.getSymbolAtLocation(target))?.declarations ?? []).flatMap(
        functionOf,
      );
      if (withBody.length > 0) return withBody;
    }
    const symbol = resolveAlias(checker.getSymbolAtLocation(target));
    if (symbol && depth < MAX_PORT_DEPTH) {
      for (const value of valuesOf(symbol, depth + 1, seen)) {
        found.push(...implementationsOf(value, member, depth + 1, seen));
      }
    }
    return found;
  };

  const hasBody = (decl: ts.Declaration): boolean =>
    (ts.isFunctionLike(decl) && 'body' in decl && decl.body !== undefined) ||
    (ts.isPropertyDeclaration(decl) &&
      decl.initializer !== undefined &&
      (ts.isArrowFunction(decl.initializer) || ts.isFunctionExpression(decl.initializer)));

  const functionOf = (decl: ts.Declaration): ts.SignatureDeclaration[] => {
    if (ts.isFunctionLike(decl) && 'body' in decl && decl.body !== undefined) return [decl];
    if (
      (ts.isPropertyDeclaration(decl) || ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl)) &&
      decl.initializer &&
      (ts.isArrowFunction(decl.initializer) || ts.isFunctionExpression(decl.initializer))
    ) {
      return [decl.initializer];
    }
    return [];
  };

  /** Classes that `implements` the interface declaring `method`, and their methods of that name. */
  const declaredImplementations = (method: ts.Declaration): ts.SignatureDeclaration[] => {
    const owner = method.parent;
    if (!ts.isInterfaceDeclaration(owner)) return [];
    const ownerSymbol = checker.getSymbolAtLocation(owner.name);
    const name = ts.getNameOfDeclaration(method);
    if (!ownerSymbol || !name || !ts.isIdentifier(name)) return [];
    const found: ts.SignatureDeclaration[] = [];
    for (const node of classes) {
      const implementsIt = (node.heritageClauses ?? []).some(
        (clause) =>
          clause.token === ts.SyntaxKind.ImplementsKeyword &&
          clause.types.some((type) =>
            sameSymbol(resolveAlias(checker.getSymbolAtLocation(type.expression)), ownerSymbol),
          ),
      );
      if (!implementsIt) continue;
      for (const element of node.members) {
        if (element.name && ts.isIdentifier(element.name) && element.name.text === name.text) {
          found.push(...functionOf(element));
        }
      }
    }
    return found;
  };

  /** The function-like declarations a call or `new` runs. */
  const calleesOf = (call: ts.CallExpression | ts.NewExpression): ts.SignatureDeclaration[] => {
    // why: most callees are one function or method, found without resolving the call's overloads
    // (which type-checks every argument, callbacks included: most of the time spent here).
    const direct = (resolveAlias(checker.getSymbolAtLocation(call.expression))?.declarations ?? []).filter(
      (decl) => ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl),
    );
    if (direct.length === 1 && hasBody(direct[0])) return direct as ts.SignatureDeclaration[];
    const signature = checker.getResolvedSignature(call);
    const declaration = signature?.declaration;
    if (declaration && !ts.isJSDocSignature(declaration) && hasBody(declaration)) return [declaration];
    // an overload: its implementation
    const calleeSymbol = resolveAlias(checker.getSymbolAtLocation(call.expression));
    const implementation = (calleeSymbol?.declarations ?? []).flatMap(functionOf);
    if (implementation.length > 0) return implementation;
    if (ts.isNewExpression(call)) return [];
    // why: a library's function (the query builder, Fastify) raises no code of ours.
    if (declaration && !inRoots(declaration.getSourceFile())) return [];
    // a port: what it is wired to
    const callee = call.expression;
    const seen = new Set<ts.Symbol>();
    let wired: ts.SignatureDeclaration[] = [];
    if (ts.isPropertyAccessExpression(callee)) {
      const memberSymbol = checker.getSymbolAtLocation(callee);
      const isFunctionProperty = (memberSymbol?.declarations ?? []).some(
        (decl) => ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl),
      );
      wired = isFunctionProperty
        ? implementationsOf(callee, undefined, 0, seen)
        : implementationsOf(callee.expression, callee.name.text, 0, seen);
    } else if (ts.isIdentifier(callee)) {
      wired = implementationsOf(callee, undefined, 0, seen);
    }
    if (wired.length > 0) return wired;
    return declaration && !ts.isJSDocSignature(declaration) ? declaredImplementations(declaration) : [];
  };

  // --- codes -------------------------------------------------------------------------------
  const isAppError = (expression: ts.Expression) => {
    const symbol = resolveAlias(checker.getSymbolAtLocation(expression));
    return symbol?.name === 'AppError' && (symbol.flags & ts.SymbolFlags.Class) !== 0;
  };

  /**
   * What a walk knows: the codes each parameter of the walked function was given, and the members
   * of discriminated unions the route sends (`submit({ kind: 'cancel' })` sends only `cancel`).
   */
  interface Kind {
    property: string;
    /** Every value of the discriminant in the union. */
    all: Set<string>;
    /** The values this route sends. */
    sent: Set<string>;
  }
  interface Context {
    params: Map<ts.ParameterDeclaration, Set<string>>;
    kinds: Kind[];
  }
  const EMPTY: Context = { params: new Map(), kinds: [] };

  /** The string-literal values of `property` over the members of `type`. */
  const discriminantValues = (type: ts.Type, property: string): Set<string> | undefined => {
    const values = new Set<string>();
    for (const member of type.isUnion() ? type.types : [type]) {
      const symbol = member.getProperty(property);
      if (!symbol) return undefined;
      const valueType = checker.getTypeOfSymbol(symbol);
      for (const value of valueType.isUnion() ? valueType.types : [valueType]) {
        if (!value.isStringLiteral()) return undefined;
        values.add(value.value);
      }
    }
    return values;
  };

  const literalCodes = (type: ts.Type): string[] => {
    const members = type.isUnion() ? type.types : [type];
    const codes = members
      .filter((member): member is ts.StringLiteralType => member.isStringLiteral())
      .map((member) => member.value);
    // why: a type as wide as the whole table (a `ResultKey` parameter) names no code by itself.
    return codes.length < resultKeys.size / 2 ? codes.filter((code) => resultKeys.has(code)) : [];
  };

  /** The codes an expression can hold: its literal types, or what the caller gave a parameter. */
  const codesOfExpression = (expression: ts.Expression, context: Context): Set<string> => {
    const codes = new Set<string>();
    if (ts.isConditionalExpression(expression)) {
      for (const branch of [expression.whenTrue, expression.whenFalse]) {
        for (const code of codesOfExpression(branch, context)) codes.add(code);
      }
      return codes;
    }
    if (ts.isIdentifier(expression)) {
      const decl = checker.getSymbolAtLocation(expression)?.valueDeclaration;
      // why: a parameter holds what this caller passed, not every member of its declared type.
      const given = decl && ts.isParameter(decl) ? context.params.get(decl) : undefined;
      if (given) return new Set(given);
    }
    for (const code of literalCodes(checker.getTypeAtLocation(expression))) codes.add(code);
    return codes;
  };

  const contextKey = (fn: ts.Node, context: Context) =>
    `${fn.getSourceFile().fileName}:${fn.pos}:${[...context.params.entries()]
      .map(([param, codes]) => `${param.pos}=${[...codes].sort().join(',')}`)
      .join(
        ';',
      )}|${context.kinds.map((kind) => `${kind.property}:${[...kind.all].join(',')}=${[...kind.sent].join(',')}`).join(';')}`;

  /** Code → where it is raised, for a function given what its parameters hold; memoised. */
  const summaries = new Map<string, Map<string, string>>();
  const summaryOf = (fn: ts.SignatureDeclaration, context: Context): Map<string, string> => {
    if (!inRoots(fn.getSourceFile())) return new Map();
    const key = contextKey(fn, context);
    const known = summaries.get(key);
    if (known) return known;
    const found = new Map<string, string>();
    // why: a recursive call sees what is found so far (recursion adds no code of its own here).
    summaries.set(key, found);
    const body = 'body' in fn ? fn.body : undefined;
    if (body) walkNode(body, context, found);
    return found;
  };

  const argumentContext = (
    callee: ts.SignatureDeclaration,
    args: readonly ts.Expression[],
    context: Context,
  ): Context => {
    const next: Context = { params: new Map(), kinds: context.kinds };
    callee.parameters.forEach((param, index) => {
      const arg = args[index];
      if (!arg) return;
      const codes = codesOfExpression(arg, context);
      if (codes.size > 0) next.params.set(param, codes);
      // an object literal giving a literal-union property one value (the kind of a discriminated
      // union, a purpose): the route sends only that value
      if (!ts.isObjectLiteralExpression(arg)) return;
      const union = checker.getContextualType(arg);
      if (!union) return;
      for (const property of arg.properties) {
        if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
        if (!ts.isStringLiteral(property.initializer)) continue;
        const name = property.name.text;
        const all = discriminantValues(union, name);
        if (!all?.has(property.initializer.text)) continue;
        const key = [...all].join(',');
        next.kinds = [
          ...next.kinds.filter((kind) => kind.property !== name || [...kind.all].join(',') !== key),
          { property: name, all, sent: new Set([property.initializer.text]) },
        ];
      }
    });
    return next;
  };

  const merge = (into: Map<string, string>, from: Map<string, string>, via: ts.Node) => {
    for (const [code, trail] of from) if (!into.has(code)) into.set(code, `${where(via)} → ${trail}`);
  };

  const calleeCache = new Map<ts.Node, ts.SignatureDeclaration[]>();
  const cachedCallees = (call: ts.CallExpression | ts.NewExpression) => {
    let callees = calleeCache.get(call);
    if (!callees) {
      callees = calleesOf(call);
      calleeCache.set(call, callees);
    }
    return callees;
  };

  /**
   * For `if (x.kind === 'a')` (or `!==`) on a union whose members the route sends are known:
   * whether each branch can run for this route.
   */
  const branchesOf = (condition: ts.Expression, context: Context) => {
    if (!ts.isBinaryExpression(condition)) return undefined;
    const operator = condition.operatorToken.kind;
    const equal = operator === ts.SyntaxKind.EqualsEqualsEqualsToken;
    if (!equal && operator !== ts.SyntaxKind.ExclamationEqualsEqualsToken) return undefined;
    const [access, literal] = ts.isStringLiteral(condition.right)
      ? [condition.left, condition.right]
      : [condition.right, condition.left];
    if (!ts.isPropertyAccessExpression(access) || !ts.isStringLiteral(literal)) return undefined;
    const values = discriminantValues(checker.getTypeAtLocation(access.expression), access.name.text);
    if (!values) return undefined;
    const kind = context.kinds.find(
      (candidate) =>
        candidate.property === access.name.text &&
        candidate.all.has(literal.text) &&
        [...values].every((value) => candidate.all.has(value)),
    );
    if (!kind) return undefined;
    const matches = kind.sent.has(literal.text);
    const onlyThat = matches && kind.sent.size === 1;
    return equal ? { whenTrue: matches, whenFalse: !onlyThat } : { whenTrue: !onlyThat, whenFalse: matches };
  };

  const exits = (statement: ts.Statement): boolean => {
    const last = ts.isBlock(statement) ? statement.statements.at(-1) : statement;
    return (
      last !== undefined &&
      (ts.isContinueStatement(last) ||
        ts.isReturnStatement(last) ||
        ts.isThrowStatement(last) ||
        ts.isBreakStatement(last))
    );
  };

  const walkNode = (node: ts.Node, context: Context, found: Map<string, string>): void => {
    if (ts.isBlock(node) || ts.isSourceFile(node) || ts.isModuleBlock(node) || ts.isCaseClause(node)) {
      for (const statement of node.statements) {
        walkNode(statement, context, found);
        // a branch this route always takes, which leaves the block: the rest does not run for it
        if (ts.isIfStatement(statement)) {
          const branches = branchesOf(statement.expression, context);
          if (branches && !branches.whenFalse && exits(statement.thenStatement)) return;
        }
      }
      return;
    }
    if (ts.isIfStatement(node)) {
      const branches = branchesOf(node.expression, context);
      if (branches) {
        walkNode(node.expression, context, found);
        if (branches.whenTrue) walkNode(node.thenStatement, context, found);
        if (branches.whenFalse && node.elseStatement) walkNode(node.elseStatement, context, found);
        return;
      }
    }
    if (ts.isNewExpression(node) && isAppError(node.expression)) {
      const first = node.arguments?.[0];
      if (first) {
        for (const code of codesOfExpression(first, context)) {
          if (!found.has(code)) found.set(code, where(node));
        }
      }
    } else if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      for (const callee of cachedCallees(node)) {
        merge(found, summaryOf(callee, argumentContext(callee, node.arguments ?? [], context)), node);
      }
      // functions handed to the call as values (callbacks) run as part of it
      for (const arg of node.arguments ?? []) {
        if (ts.isIdentifier(arg) || ts.isPropertyAccessExpression(arg)) {
          const symbol = resolveAlias(checker.getSymbolAtLocation(arg));
          for (const decl of symbol?.declarations ?? []) {
            for (const fn of functionOf(decl))
              merge(found, summaryOf(fn, { params: new Map(), kinds: context.kinds }), arg);
          }
        }
      }
    }
    ts.forEachChild(node, (child) => walkNode(child, context, found));
  };

  // --- input schemas ---------------------------------------------------------------------------
  /**
   * `replaced` are the fields an `.extend({...})` further out gives anew: the base object's own
   * definitions of them never validate this input.
   */
  const schemaCodes = (expression: ts.Node, found: Map<string, string>, seen: Set<ts.Node>) => {
    const nameOf = (property: ts.ObjectLiteralElementLike) =>
      property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))
        ? property.name.text
        : undefined;
    const visit = (node: ts.Node, replaced: ReadonlySet<string>): void => {
      // why: a helper's parameter type lists every code it may be given; its callers say which.
      if (seen.has(node) || ts.isTypeNode(node)) return;
      seen.add(node);
      if (ts.isStringLiteralLike(node) && resultKeys.has(node.text) && node.text !== 'OK') {
        if (!found.has(node.text)) found.set(node.text, `input schema → ${where(node)}`);
      }
      if (ts.isIdentifier(node) && !(ts.isPropertyAssignment(node.parent) && node.parent.name === node)) {
        const symbol = resolveAlias(checker.getSymbolAtLocation(node));
        for (const decl of symbol?.declarations ?? []) {
          if (!inRoots(decl.getSourceFile())) continue;
          if (ts.isVariableDeclaration(decl) && decl.initializer) visit(decl.initializer, replaced);
          else if (ts.isFunctionDeclaration(decl)) visit(decl, new Set());
        }
      }
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'extend' &&
        node.arguments[0] &&
        ts.isObjectLiteralExpression(node.arguments[0])
      ) {
        const fields = node.arguments[0].properties.map(nameOf).filter((name) => name !== undefined);
        visit(node.expression.expression, new Set([...replaced, ...fields]));
        visit(node.arguments[0], new Set());
        return;
      }
      if (ts.isObjectLiteralExpression(node) && replaced.size > 0) {
        for (const property of node.properties) {
          const name = nameOf(property);
          if (name === undefined || !replaced.has(name)) visit(property, new Set());
        }
        return;
      }
      ts.forEachChild(node, (child) => visit(child, replaced));
    };
    visit(expression, new Set());
  };

  const propertyOf = (literal: ts.ObjectLiteralExpression, name: string) =>
    literal.properties.find(
      (property) => property.name && ts.isIdentifier(property.name) && property.name.text === name,
    );

  const codesOf = (route: RouteSource): Map<string, string> => {
    const found = new Map<string, string>();
    for (const property of route.options.properties) {
      const name = property.name && ts.isIdentifier(property.name) ? property.name.text : undefined;
      if (name === 'config') continue;
      if (name === 'schema') {
        if (ts.isPropertyAssignment(property) && ts.isObjectLiteralExpression(property.initializer)) {
          for (const key of INPUT_SCHEMA_KEYS) {
            const part = propertyOf(property.initializer, key);
            if (part && ts.isPropertyAssignment(part)) schemaCodes(part.initializer, found, new Set());
            else if (part && ts.isShorthandPropertyAssignment(part)) schemaCodes(part.name, found, new Set());
          }
        }
        continue;
      }
      if (ts.isMethodDeclaration(property)) {
        merge(found, summaryOf(property, EMPTY), property);
      } else if (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) {
        const value = ts.isPropertyAssignment(property) ? property.initializer : property.name;
        const fns =
          ts.isArrowFunction(value) || ts.isFunctionExpression(value)
            ? [value]
            : (resolveAlias(checker.getSymbolAtLocation(value))?.declarations ?? []).flatMap(functionOf);
        for (const fn of fns) merge(found, summaryOf(fn, EMPTY), property);
        if (ts.isArrayLiteralExpression(value)) walkNode(value, EMPTY, found);
      }
    }
    return found;
  };

  return { routes, codesOf };
}
