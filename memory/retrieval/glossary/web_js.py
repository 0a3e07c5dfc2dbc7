"""Failure glossary: JavaScript/TypeScript, web frameworks, edge, mobile, web protocols."""

from fireworks_skill_memory.memory.retrieval.glossary.symptom import Symptom

SYMPTOMS: tuple[Symptom, ...] = (
    # JavaScript runtime
    Symptom(
        "js-undefined-property",
        r"(?-i:Cannot (read|set) propert(y|ies) of (undefined|null)"
        r"|cannot (read|set) propert(y|ies) of (undefined|null)|undefined is not an object"
        r"|Undefined is not an object|null is not an object|Null is not an object"
        r"|Cannot destructure property '[^'\n]{1,80}' of"
        r"|cannot destructure property '[^'\n]{1,80}' of|is not iterable|Spread syntax requires"
        r"|spread syntax requires|\.map is not a function|\.forEach is not a function)",
        "A value was null, undefined or not the expected array: missing await, data not loaded "
        "yet, an unwrapped API response or a shape change; guard with optional chaining and "
        "nullish coalescing, default to empty arrays, validate responses, enable "
        "strictNullChecks.",
    ),
    Symptom(
        "js-not-a-function",
        r"(?-i:TypeError:[^\n]{0,120}is not a (function|constructor))",
        "A value called as a function is something else: wrong import (default vs named "
        "export), a shadowed or undefined method, a mocked module without the method, or a "
        "version change in an API; check exports, types and the library version.",
    ),
    Symptom(
        "js-reference-error",
        r"(?-i:ReferenceError: [\w$]+ is not defined"
        r"|Cannot access '[\w$]+' before initialization"
        r"|cannot access '[\w$]+' before initialization)",
        "A name is used before it is declared or imported: missing import, typo, temporal dead "
        "zone of let/const, or a circular import evaluated too early; declare and import "
        "explicitly, avoid circular dependencies, enable no-undef and TypeScript checks.",
    ),
    Symptom(
        "js-missing-await",
        r"(?-i:\[object [Pp]romise\]|Promise \{ ?<pending> ?\}|promise \{ ?<pending> ?\}"
        r"|\.then is not a function|await is only valid in async function"
        r"|Await is only valid in async function|Unexpected reserved word 'await'"
        r"|unexpected reserved word 'await'|no-floating-promises|no-misused-promises"
        r"|Promises must be awaited|promises must be awaited|require-await|await-thenable"
        r"|no-async-promise-executor|promise/catch-or-return)",
        "A promise was used as its value, awaited outside an async function or left floating; "
        "always await or return promises, mark functions async, mark intentional "
        "fire-and-forget with void, enable no-floating-promises, no-misused-promises and "
        "require-await.",
    ),
    Symptom(
        "js-unhandled-rejection",
        r"(?-i:Unhandled ?[Pp]romise ?[Rr]ejection|unhandled ?[Pp]romise ?[Rr]ejection"
        r"|Unhandled promise rejection|unhandled promise rejection|unhandledRejection"
        r"|Uncaught \(in promise\)|uncaught \(in promise\)|Unhandled [Rr]ejection"
        r"|unhandled [Rr]ejection|Vitest caught \d+ unhandled errors?"
        r"|This error originated in \"[^\"\n]+\" test file"
        r"|this error originated in \"[^\"\n]+\" test file|Unhandled errors? during"
        r"|unhandled errors? during)",
        "A rejected promise or async error escaped without a catch, in the app or after a test "
        "ended: floating promises, timers or listeners firing late; await all async work, wrap "
        "async handlers in try/catch, clean up timers, enable no-floating-promises.",
    ),
    Symptom(
        "js-max-call-stack",
        r"(?-i:Maximum call stack size exceeded|maximum call stack size exceeded"
        r"|too much recursion|Too much recursion)",
        "Unbounded recursion: a function, getter, setter or effect calls itself without a base "
        "case, or two modules or objects reference each other; add a termination condition, "
        "avoid recursive re-renders, prefer iteration for deep structures.",
    ),
    Symptom(
        "node-heap-out-of-memory",
        r"(?-i:JavaScript heap out of memory|Reached heap limit|reached heap limit"
        r"|Ineffective mark-compacts|ineffective mark-compacts"
        r"|Allocation failed - JavaScript heap|allocation failed - JavaScript heap"
        r"|MaxListenersExceededWarning|Possible EventEmitter memory leak"
        r"|possible EventEmitter memory leak)",
        "The Node process leaks or exhausts memory: growing caches, listeners added per request"
        " or render, global arrays, whole files or result sets loaded at once; remove listeners"
        " in cleanup, reuse clients, stream and paginate, profile before raising "
        "--max-old-space-size.",
    ),
    Symptom(
        "js-json",
        r"(?-i:Unexpected token [^\n]{1,12} in JSON|unexpected token [^\n]{1,12} in JSON"
        r"|is not valid JSON|JSON\.parse: unexpected|Unexpected end of JSON input"
        r"|unexpected end of JSON input|JSON [Pp]arse error"
        r"|Converting circular structure to JSON|converting circular structure to JSON"
        r"|Do not know how to serialize a BigInt|do not know how to serialize a BigInt"
        r"|BigInt value can't be serialized|Body (has )?already been (used|read|consumed)"
        r"|body (has )?already been (used|read|consumed)|body used already|Body is unusable"
        r"|body is unusable|Response body object should not be disturbed or locked"
        r"|response body object should not be disturbed or locked)",
        "JSON parsing or serialisation failed: an HTML error page or empty body parsed as JSON,"
        " a response body read twice, circular references or BigInt values; check response.ok "
        "and content-type, read the body once, serialize plain DTOs, validate with a schema.",
    ),
    Symptom(
        "js-immutable-state",
        r"(?-i:Assignment to constant variable|assignment to constant variable"
        r"|Cannot assign to read only property|cannot assign to read only property"
        r"|object is not extensible|Object is not extensible"
        r"|Cannot add property [\w$]+, object is not extensible"
        r"|cannot add property [\w$]+, object is not extensible|A state mutation was detected"
        r"|\[Immer\]|A non-serializable value was detected|Reducers may not dispatch actions"
        r"|reducers may not dispatch actions|Actions must be plain objects"
        r"|actions must be plain objects|Actions may not have an undefined \"type\""
        r"|actions may not have an undefined \"type\"|returned undefined during initialization)",
        "State was mutated or is not plain data: reassigning a const, mutating frozen Redux or "
        "Immer state or props, storing Dates, class instances or promises, invalid actions; "
        "treat state as immutable, copy with spread, use createSlice, store serializable data.",
    ),
    Symptom(
        "js-invalid-date",
        r"(?-i:RangeError: [Ii]nvalid time value|Invalid time value|invalid time value"
        r"|Invalid [Dd]ate\b|invalid [Dd]ate\b)",
        "A date string could not be parsed: locale-specific or non-ISO formats, timezone "
        "ambiguity or an undefined value; store and exchange ISO 8601 timestamps in UTC, use "
        "timezone-aware libraries (date-fns-tz, Luxon, Temporal), validate before formatting.",
    ),
    Symptom(
        "js-text-encoding",
        r"(?-i:URIError: URI malformed|Malformed UTF-8|malformed UTF-8"
        r"|The encoded data was not valid for encoding"
        r"|the encoded data was not valid for encoding|Invalid character in header content"
        r"|invalid character in header content|ERR_INVALID_CHAR|unexpected character '\\ufeff'"
        r"|Unexpected character '\\ufeff')",
        "Bytes were decoded with the wrong encoding or unescaped characters reached a URL or "
        "header: a BOM, latin-1 data or raw user input; use UTF-8 everywhere, "
        "encodeURIComponent for URL parts, sanitise header values.",
    ),
    Symptom(
        "js-schema-validation",
        r"(?-i:ZodError|\"code\": ?\"invalid_(type|union|enum_value|string)\""
        r"|Expected \w+, received \w+|expected \w+, received \w+"
        r"|ValidationError: [^\n]{0,80}is required|yup|Value does not match schema"
        r"|value does not match schema)",
        "Input failed schema validation: a missing or wrongly typed field from an API, form or "
        "environment; validate at boundaries with Zod or similar, infer types from schemas, "
        "keep client and server contracts in sync, return clear 400 errors.",
    ),
    Symptom(
        "js-missing-env-var",
        r"(?-i:Missing (required )?environment variable|missing (required )?environment variable"
        r"|environment variable [\w]+ is (not set|missing|required|undefined)"
        r"|Environment variable [\w]+ is (not set|missing|required|undefined)"
        r"|Invalid environment variables|invalid environment variables"
        r"|process\.env\.\w+ is undefined|env var \w+ (is )?(missing|not set)"
        r"|Env var \w+ (is )?(missing|not set))",
        "Configuration is missing: an environment variable was not set in .env, CI secrets or "
        "the hosting dashboard, or a client bundle lacks the public prefix (NEXT_PUBLIC_, "
        "VITE_); validate env at startup with a schema, document it in .env.example.",
        environment=True,
    ),
    Symptom(
        "js-dom-globals-missing",
        r"(?-i:window is not defined|document is not defined|localStorage is not defined"
        r"|sessionStorage is not defined|navigator is not defined|self is not defined"
        r"|HTMLElement is not defined|wrong test environment|Wrong test environment"
        r"|Consider using the \"jsdom\" test environment"
        r"|consider using the \"jsdom\" test environment|TextEncoder is not (defined|a function)"
        r"|ResizeObserver is not (defined|a function)"
        r"|IntersectionObserver is not (defined|a function)"
        r"|structuredClone is not (defined|a function)|matchMedia is not (defined|a function))",
        "Browser APIs were used where no DOM exists: during server-side rendering, in Node, or "
        "in tests on the node environment or with APIs jsdom lacks; access them in useEffect or"
        " onMounted, guard typeof window, set the jsdom or happy-dom test environment, polyfill"
        " in setup files.",
    ),
    Symptom(
        "node-builtins-in-browser-or-edge",
        r"(?-i:process is not defined|Buffer is not defined|buffer is not defined"
        r"|global is not defined|require is not defined|__dirname is not defined"
        r"|__filename is not defined|BREAKING CHANGE: webpack < 5 used to include polyfills"
        r"|resolve\.fallback"
        r"|Can't resolve '(fs|path|crypto|stream|os|buffer|util|net|tls|child_process)'"
        r"|can't resolve '(fs|path|crypto|stream|os|buffer|util|net|tls|child_process)'"
        r"|wasn't found on the file system but is built into node|nodejs_compat"
        r"|No such module \"node:[\w/]+\"|no such module \"node:[\w/]+\"|compatibility_date"
        r"|Could not resolve \"node:|could not resolve \"node:"
        r"|not supported in the [Ee]dge [Rr]untime|edge [Rr]untime does not support"
        r"|Edge [Rr]untime does not support"
        r"|Dynamic [Cc]ode [Ee]valuation[^\n]{0,40}not allowed in [Ee]dge [Rr]untime"
        r"|dynamic [Cc]ode [Ee]valuation[^\n]{0,40}not allowed in [Ee]dge [Rr]untime"
        r"|EDGE_FUNCTION_INVOCATION_FAILED)",
        "Node built-ins or globals (process, Buffer, fs, crypto, __dirname) are used in "
        "browser, edge middleware or Cloudflare Workers code, where bundlers no longer polyfill"
        " them; keep Node code server-side, use Web APIs and import.meta.env, enable "
        "nodejs_compat deliberately.",
    ),
    # Node modules, ESM/CommonJS
    Symptom(
        "node-esm-commonjs-mismatch",
        r"(?-i:Cannot use import statement outside a module"
        r"|cannot use import statement outside a module|Unexpected token 'export'"
        r"|unexpected token 'export'|ERR_REQUIRE_ESM|require\(\) of ES [Mm]odule"
        r"|must use import to load ES [Mm]odule|in ES module scope|exports is not defined"
        r"|module is not defined in ES module)",
        'ES modules and CommonJS were mixed: package.json "type", file extension (.mjs/.cjs), '
        "tsconfig module setting or a dependency that became ESM-only; choose one module "
        "system, align type, module and moduleResolution, use dynamic import() for ESM from "
        "CommonJS.",
    ),
    Symptom(
        "node-module-not-found",
        r"(?-i:Cannot find module '[^'\n]+'|cannot find module '[^'\n]+'|ERR_MODULE_NOT_FOUND"
        r"|Cannot find package '[^'\n]+'|cannot find package '[^'\n]+'|MODULE_NOT_FOUND)",
        "A module could not be resolved: dependency not installed, wrong relative path or case,"
        " missing file extension in ESM imports, a build output not generated, or a package "
        "missing from dependencies; install it, use exact paths, keep lockfiles committed.",
    ),
    Symptom(
        "ts-import-export-mismatch",
        r"(?-i:does not provide an export named|Named export '[^'\n]+' not found"
        r"|named export '[^'\n]+' not found|\.default is not a (function|constructor)"
        r"|CommonJS modules can always be imported via the default export|TS1259|TS1192"
        r"|esModuleInterop|has no default export|allowSyntheticDefaultImports|TS2305|TS2614"
        r"|TS2724|has no exported member)",
        "An import does not match how the module exports: default vs named export, CommonJS "
        "interop in ESM, or a name renamed or removed in a new version; enable esModuleInterop,"
        " import the default and destructure, check the package version and changelog, use "
        "import type.",
    ),
    Symptom(
        "node-package-exports",
        r"(?-i:ERR_PACKAGE_PATH_NOT_EXPORTED|is not defined by \"exports\""
        r"|ERR_UNSUPPORTED_DIR_IMPORT|ERR_UNKNOWN_FILE_EXTENSION"
        r"|Unknown file extension \"\.tsx?\"|unknown file extension \"\.tsx?\")",
        "Node's resolver refused the import: a deep import not listed in the package's exports "
        "map, a directory import in ESM, or a .ts file run without a loader; import public "
        "entry points, use full file paths, run TypeScript with tsx or compile first.",
    ),
    Symptom(
        "node-path-alias",
        r"(?-i:Cannot find module ['\"](@/|~/|#|src/)|cannot find module ['\"](@/|~/|#|src/)"
        r"|Can't resolve ['\"](@/|~/|#|src/)|can't resolve ['\"](@/|~/|#|src/)"
        r"|Failed to resolve import ['\"](@/|~/|#|src/)"
        r"|failed to resolve import ['\"](@/|~/|#|src/)|Could not resolve ['\"](@/|~/|#|src/)"
        r"|could not resolve ['\"](@/|~/|#|src/)|Unable to resolve module ['\"](@/|~/|#|src/)"
        r"|unable to resolve module ['\"](@/|~/|#|src/))",
        "A path alias like @/ is known to TypeScript but not to the runtime, bundler or test "
        "runner; configure paths and baseUrl in tsconfig and mirror them in the bundler, Jest "
        "moduleNameMapper or vite-tsconfig-paths, or use relative imports.",
    ),
    Symptom(
        "node-circular-dependency",
        r"(?-i:Circular dependenc(y|ies)|circular dependenc(y|ies)|circular import"
        r"|Circular import|Dependency cycle detected|dependency cycle detected|import/no-cycle)",
        "Modules import each other, so one sees the other half-initialised; restructure into "
        "layers, move shared code to a separate module, use dependency injection or lazy "
        "imports, enforce import/no-cycle.",
    ),
    Symptom(
        "node-headers-already-sent",
        r"(?-i:Cannot set headers after they are sent|cannot set headers after they are sent"
        r"|ERR_HTTP_HEADERS_SENT|ERR_STREAM_WRITE_AFTER_END|write after end)",
        "A response was sent twice: a missing return after res.send, next() called after "
        "responding, or an async handler and error handler both replying; return after "
        "responding, centralise error handling middleware.",
    ),
    Symptom(
        "node-version-mismatch",
        r"(?-i:EBADENGINE|Unsupported engine|unsupported engine"
        r"|The engine \"node\" is incompatible|the engine \"node\" is incompatible"
        r"|ERR_PNPM_UNSUPPORTED_ENGINE|requires (a )?[Nn]ode(\.js)? (version )?[v>=^~]"
        r"|ERR_OSSL_EVP_UNSUPPORTED|digital envelope routines::unsupported)",
        "The Node or package manager version is outside what the project or tools support "
        "(engines, OpenSSL 3 breaking old webpack); pin the Node version with .nvmrc or volta, "
        "declare engines, use the same version in CI and locally, upgrade old toolchains.",
        environment=True,
    ),
    # Network from Node
    Symptom(
        "node-connection-refused",
        r"(?-i:ECONNREFUSED|connect ECONNREFUSED|Connection refused|connection refused)",
        "Nothing is listening at the address: the server, database or container is not running,"
        " the port or host is wrong, or localhost differs inside Docker; start the service, "
        "configure hosts through environment variables, add health checks and retries.",
        environment=True,
    ),
    Symptom(
        "node-address-in-use",
        r"(?-i:EADDRINUSE|address already in use|Address already in use"
        r"|Port \d+ is (already )?in use|port \d+ is (already )?in use)",
        "The port is taken by another process, often a previous dev server still running; stop "
        "it or choose another port, make the port configurable, close servers on shutdown.",
        environment=True,
    ),
    Symptom(
        "node-network-failure",
        r"(?-i:getaddrinfo (ENOTFOUND|EAI_AGAIN)|ENOTFOUND\b|EAI_AGAIN|ECONNRESET|socket hang up"
        r"|Socket hang up|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_SOCKET"
        r"|TypeError: fetch failed|ENETUNREACH)",
        "A network call failed: hostname unresolvable (typo, Docker or VPN-only name, offline),"
        " connection reset or timed out; check connectivity, keep base URLs in environment "
        "variables, set timeouts, retry idempotent requests with exponential backoff.",
        environment=True,
    ),
    Symptom(
        "node-file-not-found",
        r"(?-i:ENOENT: no such file or directory|ENOENT\b)",
        "A file or directory is missing: wrong working directory, relative path resolved "
        "against cwd, a build step not run, or a missing input; resolve paths from the module "
        "location, check existence first, create directories before writing.",
        environment=True,
    ),
    Symptom(
        "node-permission-denied",
        r"(?-i:EACCES: permission denied|EPERM: operation not permitted|EACCES\b|EPERM\b)",
        "The process lacks permission on a file, directory or port: global npm installs into a "
        "system prefix, root-owned files, ports below 1024 or a locked file on Windows; use a "
        "user prefix or nvm, never sudo npm, fix ownership.",
        environment=True,
    ),
    Symptom(
        "node-too-many-files",
        r"(?-i:EMFILE: too many open files|ENOSPC: [Ss]ystem limit for number of file watchers"
        r"|ENOSPC: no space left)",
        "An OS resource limit was reached: file descriptors leaked, too many watched files, or "
        "the disk is full; close streams, exclude node_modules from watchers, raise inotify "
        "limits, free disk space.",
        environment=True,
    ),
    # TypeScript compiler
    Symptom(
        "ts-cannot-find-module",
        r"(?-i:TS2307|Cannot find module '[^'\n]+' or its corresponding type declarations"
        r"|cannot find module '[^'\n]+' or its corresponding type declarations|TS7016"
        r"|Could not find a declaration file for module"
        r"|could not find a declaration file for module)",
        "TypeScript cannot resolve an import or its types: package not installed, no @types "
        "package, wrong moduleResolution or path alias not in tsconfig paths; install the "
        "package and @types, align moduleResolution with the bundler, add a typed declare "
        "module shim.",
    ),
    Symptom(
        "ts-not-assignable",
        r"(?-i:TS2322|TS2345|is not assignable to (type|parameter of type)|TS274[01]|TS2739"
        r"|Property '[^'\n]+' is missing in type|property '[^'\n]+' is missing in type"
        r"|is missing the following properties|TS2352"
        r"|Conversion of type '[^'\n]+' to type '[^'\n]+' may be a mistake"
        r"|conversion of type '[^'\n]+' to type '[^'\n]+' may be a mistake)",
        "A value's type does not match the declared type: wrong shape, missing required "
        "properties, null not handled, a union not narrowed or a library type change; narrow "
        "with type guards, fix model types, use factories for fixtures, avoid any and as casts.",
    ),
    Symptom(
        "ts-property-does-not-exist",
        r"(?-i:TS2339|TS2551|Property '[^'\n]+' does not exist on type"
        r"|property '[^'\n]+' does not exist on type)",
        "A property is used that the type does not declare: a typo, a union not narrowed, an "
        "untyped API response or a missing interface field; narrow with in or discriminated "
        "unions, type the data model, update interfaces instead of casting to any.",
    ),
    Symptom(
        "ts-possibly-null",
        r"(?-i:TS253[1-3]|TS1804[7-9]|is possibly '(null|undefined)'|Object is possibly"
        r"|object is possibly|TS2722|Cannot invoke an object which is possibly"
        r"|cannot invoke an object which is possibly|TS2564"
        r"|has no initializer and is not definitely assigned|TS2454"
        r"|is used before being assigned)",
        "strictNullChecks found a value that may be null, undefined or unassigned; guard with "
        "if checks, optional chaining or nullish coalescing, initialise fields in the "
        "constructor, avoid non-null (!) and definite assignment assertions.",
    ),
    Symptom(
        "ts-implicit-any-unknown",
        r"(?-i:TS700[56]|TS7031|TS7053|implicitly has an? '?any'? type|TS18046|TS2571"
        r"|is of type 'unknown')",
        "A value has no usable type: an unannotated parameter or index under noImplicitAny, or "
        "an unknown caught error used without narrowing; annotate parameters, use Record and "
        "keyof, narrow with instanceof and type guards, never fall back to any.",
    ),
    Symptom(
        "ts-cannot-find-name",
        r"(?-i:TS2304|TS2552|TS258[0-2]|Cannot find name '[^'\n]+'|cannot find name '[^'\n]+')",
        "An identifier has no declaration in scope: missing import, missing @types/node or "
        "@types/jest, or lib/types missing in tsconfig; import it, install the type package, "
        "set types and lib in tsconfig.",
    ),
    Symptom(
        "ts-wrong-argument-count",
        r"(?-i:TS255[45]|Expected \d+(-\d+)? arguments?, but got \d+"
        r"|expected \d+(-\d+)? arguments?, but got \d+|TS2769|No overload matches this call"
        r"|no overload matches this call)",
        "A call does not match the function's signature or any overload: an API changed between"
        " versions, optional parameters or a wrong argument type; read the current signature, "
        "update call sites, keep dependency versions pinned.",
    ),
    Symptom(
        "ts-excessively-deep",
        r"(?-i:TS2589|TS2590|Type instantiation is excessively deep"
        r"|type instantiation is excessively deep|union type that is too complex"
        r"|Union type that is too complex)",
        "Recursive or heavily generic types exceed the compiler's depth (deep Zod, Prisma, tRPC"
        " or router inference); simplify generics, annotate intermediate types explicitly, "
        "split schemas, upgrade TypeScript and libraries together.",
    ),
    Symptom(
        "ts-config-module-resolution",
        r"(?-i:TS2792|TS1479|TS1471|TS2835|TS1378|TS1375"
        r"|Relative import paths need explicit file extensions"
        r"|relative import paths need explicit file extensions"
        r"|Top-level 'await' expressions are only allowed"
        r"|top-level 'await' expressions are only allowed|moduleResolution|TS6059|TS6307|TS5023"
        r"|TS5083|TS5110|TS18003|is not under 'rootDir'|is not listed within the file list"
        r"|Unknown compiler option|unknown compiler option|No inputs were found in config file"
        r"|no inputs were found in config file)",
        "tsconfig does not match the runtime or files: module and moduleResolution (node16 "
        "needs .js extensions), target too old for top-level await, rootDir or include missing "
        "files; align settings with the bundler or Node ESM, use project references, pin "
        "TypeScript.",
    ),
    Symptom(
        "ts-duplicate-types",
        r"(?-i:TS2451|TS2300|TS2393|Cannot redeclare block-scoped variable"
        r"|cannot redeclare block-scoped variable|Duplicate identifier|duplicate identifier"
        r"|TS2786|cannot be used as a JSX component|TS17004"
        r"|Cannot use JSX unless the '--jsx' flag|cannot use JSX unless the '--jsx' flag)",
        "Types are declared twice or inconsistent: a file without imports treated as a global "
        "script, duplicate @types/react versions, or jsx not set in tsconfig; add export {}, "
        "dedupe and align @types versions with React, set jsx to react-jsx.",
    ),
    Symptom(
        "ts-unused-and-unreachable",
        r"(?-i:TS6133|TS6192|TS6196|is declared but (its value is )?never (read|used)|TS2366"
        r"|TS7030|Not all code paths return a value|not all code paths return a value|TS2367"
        r"|This comparison appears to be unintentional"
        r"|this comparison appears to be unintentional|no-unused-vars"
        r"|is (defined|assigned a value) but never used)",
        "Unused or dead code was found: variables, imports or parameters never used, missing "
        "return paths, impossible comparisons; remove unused code, prefix intentionally unused "
        "parameters with _, return on every branch, use exhaustive switch with never.",
    ),
    # Package managers
    Symptom(
        "npm-eresolve-peer-deps",
        r"(?-i:ERESOLVE|unable to resolve dependency tree|Unable to resolve dependency tree"
        r"|Could not resolve dependency|could not resolve dependency|conflicting peer dependency"
        r"|ERR_PNPM_PEER_DEP_ISSUES|unmet peer|incorrect peer dependency)",
        "Peer dependency ranges conflict: a plugin or library does not yet support the "
        "installed major version (React, ESLint, TypeScript); align versions, upgrade the "
        "library, use overrides/resolutions deliberately, avoid --force and --legacy-peer-deps "
        "as habits.",
    ),
    Symptom(
        "npm-package-not-found",
        r"(?-i:npm ERR! 404|E404\b|is not in (this|the npm) registry|ERR_PNPM_FETCH_404"
        r"|Couldn't find package|couldn't find package"
        r"|404 [Nn]ot [Ff]ound - GET https?://registry|ETARGET|No matching version found for"
        r"|no matching version found for|ERR_PNPM_NO_MATCHING_VERSION"
        r"|Couldn't find any versions for|couldn't find any versions for|notarget)",
        "A package or version does not exist in the registry: a typo, a hallucinated name, an "
        "unreleased version, or a private scope without its registry in .npmrc; verify names "
        "and published versions, configure scope registries, pin exact versions.",
    ),
    Symptom(
        "npm-registry-auth-integrity",
        r"(?-i:E401\b|ENEEDAUTH|E403\b|Unable to authenticate|unable to authenticate"
        r"|ERR_PNPM_FETCH_40[13]|This command requires you to be logged in"
        r"|this command requires you to be logged in|need auth|EINTEGRITY"
        r"|integrity checksum failed|Integrity checksum failed|Integrity check failed"
        r"|integrity check failed|ERR_PNPM_TARBALL_INTEGRITY)",
        "The registry rejected the request or served unexpected content: a missing or expired "
        "token, NPM_TOKEN unset in CI, no publish rights, or a corrupted cache; configure "
        ".npmrc with an env token, log in, clean the cache and reinstall.",
        environment=True,
    ),
    Symptom(
        "npm-lockfile-out-of-sync",
        r"(?-i:npm ci`? can only install packages when|ERR_PNPM_OUTDATED_LOCKFILE"
        r"|frozen-lockfile|lockfile needs to be updated|YN0028"
        r"|The lockfile would have been modified|the lockfile would have been modified"
        r"|package-lock\.json[^\n]{0,60}(out of sync|not in sync)"
        r"|This project is configured to use \w+|this project is configured to use \w+"
        r"|ERR_PNPM_BAD_PM_VERSION|Corepack must|corepack must|UsageError: [Tt]his project"
        r"|packageManager field)",
        "The lockfile or package manager disagrees with package.json: dependencies changed "
        "without reinstalling, or another manager than packageManager used; commit the "
        "lockfile, use one package manager via Corepack, keep CI on frozen installs (npm ci).",
        environment=True,
    ),
    Symptom(
        "npm-missing-script-task",
        r"(?-i:Missing script:|missing script:|ERR_PNPM_NO_SCRIPT"
        r"|error [Cc]ommand \"[^\"\n]+\" not found|ERR_PNPM_RECURSIVE_RUN_NO_SCRIPT|turbo\.json"
        r"|Could not find task `|could not find task `|Missing tasks? in project"
        r"|missing tasks? in project|\"pipeline\" (key|field)"
        r"|run failed: command [^\n]{0,40}exited)",
        "A script or workspace task is not defined where it runs: wrong directory or filter, "
        "typo, or tasks missing from turbo.json; check package.json scripts, declare tasks, "
        "outputs and dependsOn, build internal packages before their dependents.",
    ),
    Symptom(
        "npm-dependency-declaration",
        r"(?-i:tried to access [^\n]{0,80}but it isn't declared in (its|your) dependencies"
        r"|Tried to access [^\n]{0,80}but it isn't declared in (its|your) dependencies"
        r"|should be listed in the project's dependencies|import/no-extraneous-dependencies"
        r"|ERR_PNPM_WORKSPACE_PKG_NOT_FOUND"
        r"|import/(order|no-unresolved|named|no-duplicates|first|no-default-export|extensions)"
        r"|simple-import-sort|Unable to resolve path to module|unable to resolve path to module)",
        "Imports do not match declared dependencies or import rules: packages used but not "
        "declared (relying on hoisting), unresolved aliases, wrong order; declare every "
        "dependency explicitly, use workspace: for internal packages, configure the import "
        "resolver.",
    ),
    Symptom(
        "npm-audit-vulnerabilities",
        r"(?-i:low severity vulnerabilit|Low severity vulnerabilit"
        r"|moderate severity vulnerabilit|Moderate severity vulnerabilit"
        r"|high severity vulnerabilit|High severity vulnerabilit|critical severity vulnerabilit"
        r"|Critical severity vulnerabilit|ERR_PNPM_AUDIT"
        r"|vulnerabilities \(\d+ (low|moderate|high|critical)"
        r"|Vulnerabilities \(\d+ (low|moderate|high|critical)|found [1-9]\d* vulnerabilit"
        r"|Found [1-9]\d* vulnerabilit)",
        "Dependencies have known vulnerabilities; update to patched versions, keep dependencies"
        " current with Dependabot or Renovate, pin versions, review transitive overrides, avoid"
        " npm audit fix --force blindly.",
    ),
    Symptom(
        "node-native-addon",
        r"(?-i:gyp ERR!|Gyp ERR!|node-gyp rebuild|Node-gyp rebuild|node-pre-gyp"
        r"|prebuild-install (warn|err)|Prebuild-install (warn|err)"
        r"|Could not find any [Vv]isual [Ss]tudio installation"
        r"|could not find any [Vv]isual [Ss]tudio installation|No module named 'distutils'"
        r"|no module named 'distutils'|NODE_MODULE_VERSION"
        r"|was compiled against a different [Nn]ode\.js version|ERR_DLOPEN_FAILED"
        r"|invalid ELF header|Invalid ELF header"
        r"|\.node: (wrong ELF class|cannot open shared object))",
        "A native addon failed to build or load: no prebuilt binary, missing Python or C++ "
        "toolchain, or built for another Node version, OS or architecture; use a supported Node"
        " LTS, install build tools, rebuild inside the container, never copy node_modules "
        "across platforms.",
        environment=True,
    ),
    Symptom(
        "format-check",
        r"(?-i:Code style issues (found|were found)|code style issues (found|were found)"
        r"|Forgot to run [Pp]rettier|forgot to run [Pp]rettier|prettier/prettier|Delete `␍`"
        r"|delete `␍`|Insert `[^`\n]{1,20}`|insert `[^`\n]{1,20}`"
        r"|\[warn\] [^\n]+\.(tsx?|jsx?|json|css|scss|md|vue|svelte|ya?ml)$"
        r"|biome (lint|check|format|ci)\b|Biome (lint|check|format|ci)\b"
        r"|lint/(suspicious|style|correctness|complexity|a11y|performance|security)/"
        r"|husky - [^\n]{0,60}(hook|script)|Husky - [^\n]{0,60}(hook|script)|lint-staged"
        r"|pre-commit hook (failed|exited)|Pre-commit hook (failed|exited))",
        "Formatting or lint checks failed, often in a pre-commit hook or CI: Prettier or Biome "
        "not run, CRLF line endings, editor and linter style conflicts; run the formatter with "
        "--write, format on save, use eslint-config-prettier, never bypass hooks with "
        "--no-verify.",
    ),
    # Linters and formatters
    Symptom(
        "eslint-config-parsing",
        r"(?-i:Parsing error:|parsing error:|parserOptions\.project"
        r"|was not found by the project service"
        r"|The file must be included in at least one of the projects provided"
        r"|the file must be included in at least one of the projects provided"
        r"|ESLint couldn't (find|determine)|Failed to load (config|plugin|parser)"
        r"|failed to load (config|plugin|parser)|Could not find config file"
        r"|could not find config file|ESLINT_USE_FLAT_CONFIG|eslintrc|flat config|Flat config)",
        "ESLint could not load its config or parse a file: eslintrc vs flat config after ESLint"
        " 9, a missing plugin, or a file outside the tsconfig used for typed linting; migrate "
        "to eslint.config.js, install plugins, configure typescript-eslint projectService.",
    ),
    Symptom(
        "eslint-type-safety-escapes",
        r"(?-i:no-explicit-any|Unexpected any\. [Ss]pecify a different type"
        r"|unexpected any\. [Ss]pecify a different type"
        r"|no-unsafe-(assignment|member-access|call|return|argument)"
        r"|Unsafe (assignment|member access|call|return|argument) of an? "
        r"|unsafe (assignment|member access|call|return|argument) of an? |no-non-null-assertion"
        r"|ban-ts-comment|Forbidden non-null assertion|forbidden non-null assertion"
        r"|prefer-ts-expect-error|Use \"@ts-expect-error\" instead of \"@ts-ignore\""
        r"|use \"@ts-expect-error\" instead of \"@ts-ignore\")",
        "Type checking is bypassed: any leaking through assignments and calls, non-null "
        "assertions or @ts-ignore; use unknown and narrow, type API responses with schemas, "
        "handle null explicitly, use @ts-expect-error with a reason only when unavoidable.",
    ),
    Symptom(
        "eslint-exhaustive-deps",
        r"(?-i:react-hooks/exhaustive-deps|React [Hh]ook \w+ has (a )?missing dependenc"
        r"|react [Hh]ook \w+ has (a )?missing dependenc"
        r"|React [Hh]ook \w+ has an unnecessary dependency"
        r"|react [Hh]ook \w+ has an unnecessary dependency)",
        "A hook's dependency array omits values it reads, causing stale closures, or includes "
        "unstable ones, causing loops; list all dependencies, memoize callbacks and objects "
        "with useCallback and useMemo, move constants outside the component.",
    ),
    Symptom(
        "react-hooks-rules",
        r"(?-i:Invalid hook call|invalid hook call"
        r"|Hooks can only be called inside (of )?the body of a function component"
        r"|hooks can only be called inside (of )?the body of a function component"
        r"|react-hooks/rules-of-hooks|is called conditionally|Rendered (more|fewer) hooks than"
        r"|rendered (more|fewer) hooks than|change in the order of [Hh]ooks"
        r"|Change in the order of [Hh]ooks|React [Hh]ooks must be called in the exact same order"
        r"|react [Hh]ooks must be called in the exact same order)",
        "Hooks were called conditionally, in loops, after an early return or outside "
        "components, or two copies of React are installed; call hooks unconditionally at the "
        "top level of components and custom hooks, dedupe react, use peer dependencies in "
        "libraries.",
    ),
    Symptom(
        "eslint-style-rules",
        r"(?-i:prefer-const|eqeqeq\b|no-var\b|Expected '===' and instead saw"
        r"|expected '===' and instead saw|no-param-reassign|no-shadow"
        r"|is already declared in the upper scope|no-console|no-debugger"
        r"|Unexpected console statement|unexpected console statement|no-alert"
        r"|ESLint found too many warnings|--max-warnings)",
        "Code-quality lint rules failed: console or debugger left in, let never reassigned, "
        "loose equality, shadowed names, or warnings above --max-warnings; use const, strict "
        "equality, a structured logger, and fix warnings rather than disabling rules.",
    ),
    Symptom(
        "eslint-a11y",
        r"(?-i:jsx-a11y/|must have alt prop|non-interactive elements with click handlers|a11y_"
        r"|A11y: |vuejs-accessibility)",
        "Accessibility rules failed: images without alt text, click handlers on non-interactive"
        " elements, missing labels or roles; use semantic HTML elements, buttons for actions, "
        "labels for inputs and ARIA only when needed.",
    ),
    Symptom(
        "react-missing-key",
        r"(?-i:react/jsx-key|Missing \"key\" prop|missing \"key\" prop"
        r"|should have a unique \"key\" prop|Encountered two children with the same key"
        r"|encountered two children with the same key)",
        "List items lack stable unique keys, so React mixes up state between items; use a "
        "stable id from the data as key, never the array index for reorderable lists.",
    ),
    Symptom(
        "next-components-config",
        r"(?-i:hostname \"[^\"\n]+\" is not configured under images"
        r"|Hostname \"[^\"\n]+\" is not configured under images|images\.remotePatterns"
        r"|Invalid src prop[^\n]{0,120}next/image|invalid src prop[^\n]{0,120}next/image"
        r"|Image with src \"[^\"\n]+\" is missing required"
        r"|image with src \"[^\"\n]+\" is missing required|@next/next/"
        r"|Using `<img>` could result in slower LCP|using `<img>` could result in slower LCP"
        r"|Do not use an `<a>` element to navigate|do not use an `<a>` element to navigate)",
        "Next.js components are misused or misconfigured: raw img or a tags instead of "
        "next/image and next/link, remote image hosts not in images.remotePatterns, missing "
        "dimensions; use the framework components, configure allowed hosts, provide width and "
        "height.",
    ),
    Symptom(
        "stylelint-rules",
        r"(?-i:stylelint|declaration-block-no-duplicate-properties|no-descending-specificity"
        r"|selector-class-pattern|at-rule-no-unknown|property-no-unknown|color-no-invalid-hex)",
        "CSS failed Stylelint rules: duplicate properties, unknown at-rules (Tailwind, SCSS "
        "without the right config), specificity order or naming patterns; extend the proper "
        "shared config, use consistent class naming like BEM.",
    ),
    # Bundlers and build tools
    Symptom(
        "bundler-module-not-found",
        r"(?-i:Module not found: ([Ee]rror: )?Can't resolve"
        r"|module not found: ([Ee]rror: )?Can't resolve|Can't resolve '[^'\n]+'"
        r"|can't resolve '[^'\n]+'|Could not resolve \"|could not resolve \""
        r"|Failed to resolve import|failed to resolve import|Rollup failed to resolve import"
        r"|rollup failed to resolve import)",
        "The bundler cannot resolve an import: package not installed, wrong relative path or "
        "letter case (case-sensitive Linux CI), missing alias config, or a Node built-in in "
        "browser code; install dependencies, fix paths, mirror tsconfig paths in the bundler.",
    ),
    Symptom(
        "bundler-transform",
        r"(?-i:You may need an appropriate loader|you may need an appropriate loader"
        r"|Module parse failed|module parse failed|No loader is configured for"
        r"|no loader is configured for|✘ \[ERROR\]|esbuild: |Esbuild: "
        r"|Transform failed with \d+ errors?|transform failed with \d+ errors?"
        r"|The service was stopped|the service was stopped"
        r"|esbuild[^\n]{0,40}(another platform|wrong platform))",
        "The bundler met a file type or syntax it cannot transform (TypeScript, JSX, CSS, "
        "assets, modern syntax in node_modules) or has a platform binary for another OS; "
        "configure loaders, plugins and target, reinstall dependencies on the build machine.",
    ),
    Symptom(
        "vite-rollup-build",
        r"(?-i:is not exported by|RollupError|Unresolved dependencies|unresolved dependencies"
        r"|\[!\] [Ee]rror|Failed to resolve entry for package"
        r"|failed to resolve entry for package|Outdated [Oo]ptimize [Dd]ep"
        r"|outdated [Oo]ptimize [Dd]ep|optimizeDeps"
        r"|The following dependencies are imported but could not be resolved"
        r"|the following dependencies are imported but could not be resolved"
        r"|\[vite\][^\n]{0,80}(Internal server error|[Pp]re-transform error))",
        "Vite or Rollup could not link or pre-bundle a dependency: a missing named export, "
        "CommonJS without interop, a package without a valid exports entry, or a stale cache; "
        "check exports, configure optimizeDeps and the commonjs plugin, clear the cache.",
    ),
    Symptom(
        "bundle-size-limit",
        r"(?-i:Some chunks are larger than|some chunks are larger than"
        r"|exceeds? the recommended size limit|asset size limit|Asset size limit"
        r"|entrypoint size limit|Entrypoint size limit|size-limit|bundle size (exceeded|budget))",
        "The bundle or a chunk exceeds its size budget; use code splitting and lazy loading, "
        "dynamic import for heavy routes, tree-shakable imports, analyse the bundle and remove "
        "large dependencies.",
    ),
    Symptom(
        "css-tooling",
        r"(?-i:Cannot apply unknown utility class|cannot apply unknown utility class"
        r"|The `[^`\n]+` class does not exist|the `[^`\n]+` class does not exist"
        r"|trying to use `tailwindcss` directly as a PostCSS plugin"
        r"|Trying to use `tailwindcss` directly as a PostCSS plugin"
        r"|Unknown at rule @(tailwind|apply)|unknown at rule @(tailwind|apply)"
        r"|@tailwindcss/postcss|SassError|Deprecation [Ww]arning[^\n]{0,40}legacy JS API"
        r"|deprecation [Ww]arning[^\n]{0,40}legacy JS API|Undefined (variable|mixin)"
        r"|undefined (variable|mixin)|@import rules are deprecated)",
        "CSS tooling is misconfigured: Tailwind v4 needs @tailwindcss/postcss or its Vite "
        "plugin and @import, unknown @apply classes, Sass undefined variables or deprecated "
        "@import; follow the version's setup, migrate to @use, keep design tokens in shared "
        "config.",
    ),
    # React
    Symptom(
        "react-infinite-render-loop",
        r"(?-i:Maximum update depth exceeded|maximum update depth exceeded|Too many re-renders"
        r"|too many re-renders|getSnapshot should be cached"
        r"|The result of getSnapshot should be cached"
        r"|the result of getSnapshot should be cached)",
        "State is set during render, or an effect or store selector produces new values every "
        "render, creating an infinite loop; set state in handlers, fix effect dependencies, "
        "memoize selectors with useShallow or shallow equality, derive state instead of "
        "syncing.",
    ),
    Symptom(
        "react-hydration-mismatch",
        r"(?-i:Hydration failed|hydration failed|did not match\. [Ss]erver:"
        r"|Text content does not match server-rendered"
        r"|text content does not match server-rendered|hydration mismatch|Hydration mismatch"
        r"|error while hydrating|Error while hydrating|Minified [Rr]eact error #(418|423|425)"
        r"|minified [Rr]eact error #(418|423|425))",
        "Server-rendered HTML differs from the first client render: Date.now, Math.random, "
        "locale or timezone formatting, window checks in render, or invalid HTML nesting; "
        "render deterministic output, move browser-only values into useEffect, use valid "
        "nesting.",
    ),
    Symptom(
        "react-invalid-render-value",
        r"(?-i:Objects are not valid as a [Rr]eact child"
        r"|objects are not valid as a [Rr]eact child|Functions are not valid as a [Rr]eact child"
        r"|functions are not valid as a [Rr]eact child|Element type is invalid"
        r"|element type is invalid|expected a string \(for built-in components\)"
        r"|React\.createElement: type is invalid)",
        "React received something it cannot render: an object, promise or function as a child, "
        "or a component import that is undefined (default vs named export, circular import); "
        "render fields, map arrays to elements, check export style.",
    ),
    Symptom(
        "react-effect-lifecycle",
        r"(?-i:Cannot update a component [^\n]{0,80}while rendering a different component"
        r"|cannot update a component [^\n]{0,80}while rendering a different component"
        r"|state update on an unmounted component|State update on an unmounted component"
        r"|must not return anything besides a function|An effect function must not return"
        r"|an effect function must not return)",
        "State updates or effects run at the wrong time: during another component's render, "
        "after unmount, or an async function passed to useEffect; update in effects or "
        "handlers, define async functions inside effects, clean up with AbortController.",
    ),
    Symptom(
        "react-act-warning",
        r"(?-i:not wrapped in act\(|inside a test was not wrapped in act)",
        "A component updated state after the test moved on; await async updates with findBy "
        "queries, waitFor or user-event's async API, mock timers consistently, avoid manual "
        "act.",
    ),
    Symptom(
        "react-controlled-input",
        r"(?-i:changing an uncontrolled input to be controlled"
        r"|changing a controlled input to be uncontrolled"
        r"|You provided a `value` prop to a form field without an `onChange`"
        r"|you provided a `value` prop to a form field without an `onChange`)",
        "An input switched between controlled and uncontrolled because its value became "
        "undefined; initialise form state with defined values, use empty strings, pair value "
        "with onChange.",
    ),
    Symptom(
        "react-missing-provider",
        r"(?-i:must be used within an? \w*[Pp]rovider|could not find react-redux context value"
        r"|Could not find react-redux context value|No QueryClient set|no QueryClient set"
        r"|may be used only in the context of a <Router>"
        r"|May be used only in the context of a <Router>|could not find \"store\""
        r"|Could not find \"store\"|No ProviderScope found|no ProviderScope found"
        r"|ProviderNotFoundException)",
        "A hook needs a context provider that is not above the component, often in tests or a "
        "separate render root; wrap the tree in the provider, use a custom render with all "
        "providers in tests.",
    ),
    Symptom(
        "react-server-client-boundary",
        r"(?-i:needs (useState|useEffect|useContext|useRef|[\w ]{1,40})[^\n]{0,40}only works in"
        r" a [Cc]lient [Cc]omponent|only works in [Cc]lient [Cc]omponents"
        r"|cannot be passed (directly )?to [Cc]lient [Cc]omponents"
        r"|Only plain objects[^\n]{0,80}[Cc]lient [Cc]omponents"
        r"|only plain objects[^\n]{0,80}[Cc]lient [Cc]omponents|\"use client\"|\"use server\""
        r"|server-only|async/await is not yet supported in [Cc]lient [Cc]omponents"
        r"|Async/await is not yet supported in [Cc]lient [Cc]omponents)",
        "React Server and Client Components were mixed: hooks or event handlers in a Server "
        "Component, non-serializable props passed to a Client Component, or server code "
        "imported by client code; add 'use client' at leaf components, pass serializable data.",
    ),
    # Next.js, Remix, Vue, Svelte, Angular, Astro, Solid
    Symptom(
        "next-dynamic-rendering",
        r"(?-i:Dynamic server usage|dynamic server usage|DYNAMIC_SERVER_USAGE"
        r"|couldn't be rendered statically|Couldn't be rendered statically"
        r"|should be wrapped in a suspense boundary|was called outside a request scope"
        r"|should be awaited before using its properties|sync-dynamic-apis)",
        "A Next.js route uses request-time APIs (cookies, headers, searchParams) where static "
        "rendering was expected, or uses them synchronously; await dynamic APIs, wrap "
        "useSearchParams in Suspense, mark routes dynamic explicitly.",
    ),
    Symptom(
        "next-build-failure",
        r"(?-i:Error occurred prerendering page|error occurred prerendering page"
        r"|Export encountered errors on following paths|getStaticPaths is required"
        r"|generateStaticParams|Build failed because of webpack errors"
        r"|build failed because of webpack errors"
        r"|Command \"(npm|pnpm|yarn|bun) run build\" exited with"
        r"|command \"(npm|pnpm|yarn|bun) run build\" exited with|No [Oo]utput [Dd]irectory named"
        r"|no [Oo]utput [Dd]irectory named|Build script returned non-zero exit code"
        r"|build script returned non-zero exit code|Deploy did not succeed"
        r"|deploy did not succeed|netlify\.toml)",
        "The production build failed on the host (Vercel, Netlify) or during prerendering: "
        "missing build env vars, unavailable APIs at build time, Node version, case-sensitive "
        "paths; reproduce with a clean install, pin Node, make data-dependent routes dynamic.",
    ),
    Symptom(
        "next-router-api-mismatch",
        r"(?-i:NextRouter was not mounted|is not a valid [Pp]age export field"
        r"|is not a valid type for the function's (first|second) argument"
        r"|does not match the required types of a [Nn]ext\.js|has an invalid \"\w+\" export)",
        "App Router and Pages Router APIs were mixed, or a route file's exports do not match "
        "the framework's types (params are a Promise in Next 15); use next/navigation in app/, "
        "type page and route handler props as documented.",
    ),
    Symptom(
        "react-router-remix-routes",
        r"(?-i:No routes matched location|no routes matched location|No route matches URL"
        r"|no route matches URL|did not provide an `action`|must be used within a data router"
        r"|useLoaderData|You defined a loader for route|you defined a loader for route)",
        "A route, loader or action is missing or the router is not a data router; define routes"
        " and actions for every form target, use createBrowserRouter for data APIs, keep route "
        "modules exporting loader and action.",
    ),
    Symptom(
        "vue-nuxt-warnings",
        r"(?-i:\[Vue warn\]|was accessed during render but is not defined on instance"
        r"|Failed to resolve component|failed to resolve component"
        r"|Extraneous non-props attributes|extraneous non-props attributes"
        r"|Avoid mutating a prop directly|avoid mutating a prop directly"
        r"|Attempting to mutate prop|attempting to mutate prop"
        r"|Set operation on key \"\w+\" failed: target is readonly"
        r"|set operation on key \"\w+\" failed: target is readonly|nuxt instance unavailable"
        r"|Nuxt instance unavailable"
        r"|called outside of a plugin, [Nn]uxt hook, [Nn]uxt middleware"
        r"|A composable that requires access to the [Nn]uxt instance|\[nuxt\] \[request error\])",
        "Vue or Nuxt rules were broken: template names not declared or registered, props "
        "mutated by a child, or composables called outside setup or after await; declare props "
        "and emits, use defineModel, import components, call composables synchronously in "
        "setup.",
    ),
    Symptom(
        "svelte-runes-sveltekit",
        r"(?-i:runes mode|Runes mode|`\$:` is not allowed|Cannot use `export let`"
        r"|cannot use `export let`|state_unsafe_mutation|state_referenced_locally|\$state"
        r"|\$derived|\$effect|Cannot import \$lib/server|cannot import \$lib/server"
        r"|Cannot import \$env/(static|dynamic)/private"
        r"|cannot import \$env/(static|dynamic)/private|into (client-side|public-facing) code"
        r"|\+page\.server|\+server\.(js|ts))",
        "Svelte 5 runes mixed with legacy syntax, state mutated in derived expressions, or "
        "server-only modules and private env imported into client code; migrate to $state, "
        "$derived and $props, keep secrets in +page.server files and $lib/server.",
    ),
    Symptom(
        "angular-expression-changed",
        r"(?-i:NG0100|ExpressionChangedAfterItHasBeenCheckedError)",
        "A binding changed after change detection checked it, often state updated in "
        "ngAfterViewInit or a getter returning new values; move updates to ngOnInit, use "
        "signals or async pipe, avoid side effects in templates.",
    ),
    Symptom(
        "angular-dependency-injection",
        r"(?-i:NullInjectorError|No provider for \w+|no provider for \w+|NG0201|NG0203"
        r"|inject\(\) must be called from an injection context|NG0200|Circular dependency in DI"
        r"|circular dependency in DI|NG0202)",
        "Angular dependency injection failed: a service not provided, inject() outside an "
        "injection context, or services depending on each other in a cycle; register providers "
        "(providedIn root, provideHttpClient), inject in constructors, split circular services.",
    ),
    Symptom(
        "angular-unknown-element",
        r"(?-i:NG8001|NG8002|NG0304|is not a known element"
        r"|Can't bind to '\w+' since it isn't a known property"
        r"|can't bind to '\w+' since it isn't a known property)",
        "A template uses a component, directive or input not imported: standalone components "
        "need it in imports, modules need declarations or exports (FormsModule, "
        "ReactiveFormsModule); add the import, check selector names and inputs.",
    ),
    Symptom(
        "astro-errors",
        r"(?-i:\[astro\]|NoMatchingStaticPathFound|getStaticPaths\(\) (function )?is required"
        r"|InvalidContentEntryFrontmatterError|NoAdapterInstalled|client:(load|only|visible))",
        "Astro build failed: dynamic routes without getStaticPaths in static mode, content "
        "collection frontmatter not matching its schema, or server output without an adapter; "
        "define paths, fix schemas, install the adapter.",
    ),
    Symptom(
        "solid-reactivity",
        r"(?-i:computations created outside a `createRoot`"
        r"|Computations created outside a `createRoot`|cleanups created outside a `createRoot`"
        r"|Cleanups created outside a `createRoot`|can be only used inside a [Rr]oute)",
        "Solid reactive primitives were created outside a reactive root or component, or props "
        "were destructured losing reactivity; create effects inside components, use splitProps,"
        " keep router primitives inside routes.",
    ),
    Symptom(
        "tanstack-query-misuse",
        r"(?-i:Query data cannot be undefined|query data cannot be undefined|Missing queryFn"
        r"|missing queryFn|Bad argument type\. [Ss]tarting with v5"
        r"|bad argument type\. [Ss]tarting with v5|only the \"Object\" form is allowed"
        r"|No queryFn was passed|no queryFn was passed)",
        "TanStack Query was misused: a queryFn returning undefined, v4 positional arguments on "
        "v5, or unstable query keys; return null instead of undefined, use the object form, "
        "include all variables in query keys.",
    ),
    Symptom(
        "trpc-errors",
        r"(?-i:TRPCClientError|TRPCError"
        r"|\"code\": ?\"(BAD_REQUEST|UNAUTHORIZED|FORBIDDEN|INTERNAL_SERVER_ERROR|NOT_FOUND)\""
        r"|Unable to transform response from server|unable to transform response from server)",
        "A tRPC procedure failed: input validation, an auth middleware rejection, or a "
        "transformer (superjson) mismatch between client and server; share the router type, "
        "validate input with Zod, configure the same transformer on both sides.",
    ),
    Symptom(
        "prisma-client-schema",
        r"(?-i:@prisma/client did not initialize yet|prisma generate|Prisma generate"
        r"|PrismaClientInitializationError|Query engine library for current platform"
        r"|query engine library for current platform|binaryTargets|PrismaClientValidationError"
        r"|Unknown arg(ument)? `\w+`|unknown arg(ument)? `\w+`|Argument `\w+` is missing"
        r"|argument `\w+` is missing|Invalid `prisma\.\w+\.\w+\(\)` invocation"
        r"|invalid `prisma\.\w+\.\w+\(\)` invocation)",
        "Prisma Client does not match the schema or platform: prisma generate not run after "
        "schema changes, renamed fields, missing required arguments or binaryTargets; generate "
        "in postinstall and build, use the typed API, keep schema and migrations in sync.",
    ),
    Symptom(
        "prisma-constraint-violation",
        r"(?-i:P2002\b|Unique constraint failed on the|unique constraint failed on the|P2025\b"
        r"|Record to (update|delete) does not exist|record to (update|delete) does not exist"
        r"|depends on one or more records that were required but not found|P2003\b"
        r"|Foreign key constraint (failed|violated)|foreign key constraint (failed|violated))",
        "A Prisma write broke a constraint: duplicate unique values from retries or races, a "
        "record that does not exist, or a broken foreign key; use upsert and transactions, "
        "idempotency keys, check existence, define cascade rules, handle P2002 and P2025 "
        "explicitly.",
    ),
    Symptom(
        "prisma-migration-failure",
        r"(?-i:P30(0[5-9]|1[0-9])\b|migrate found failed migrations"
        r"|Migrate found failed migrations|Drift detected|drift detected"
        r"|database schema is not empty|Database schema is not empty"
        r"|migration[^\n]{0,60}failed to apply)",
        "Prisma migrations are out of sync with the database: a failed or edited migration, "
        "schema drift from db push, or a non-empty database; never edit applied migrations, use"
        " migrate deploy in production, baseline existing databases, resolve failed ones.",
    ),
    Symptom(
        "js-db-unreachable-or-exhausted",
        r"(?-i:P2024\b|Timed out fetching a new connection from the connection pool"
        r"|timed out fetching a new connection from the connection pool|too many clients already"
        r"|Too many clients already|remaining connection slots are reserved"
        r"|Remaining connection slots are reserved|Too many connections|too many connections"
        r"|P1001\b|Can't reach database server|can't reach database server)",
        "The database is unreachable or out of connections: a new client per request or hot "
        "reload, serverless functions without pooling, or the server down; use a singleton "
        "client, a connection pooler, limit pool size, check DATABASE_URL.",
        environment=True,
    ),
    Symptom(
        "drizzle-errors",
        r"(?-i:drizzle-kit|DrizzleError|DrizzleQueryError|Failed query:|failed query:"
        r"|__drizzle_migrations)",
        "A Drizzle query or migration failed: schema and database out of sync, migrations not "
        "generated or applied, or wrong driver config; generate and apply migrations in order, "
        "avoid push in production, keep schema files the source of truth.",
    ),
    Symptom(
        "graphql-errors",
        r"(?-i:Cannot query field \"\w+\" on type|cannot query field \"\w+\" on type"
        r"|GRAPHQL_VALIDATION_FAILED|Variable \"\$\w+\"|variable \"\$\w+\""
        r"|Unknown argument \"\w+\" on field|unknown argument \"\w+\" on field"
        r"|GRAPHQL_PARSE_FAILED|Cannot return null for non-nullable field"
        r"|cannot return null for non-nullable field"
        r"|Missing field '[^'\n]+' while writing result"
        r"|missing field '[^'\n]+' while writing result|Cache data may be lost when replacing"
        r"|cache data may be lost when replacing|ApolloError"
        r"|Response not successful: [Rr]eceived status code"
        r"|response not successful: [Rr]eceived status code)",
        "A GraphQL operation or resolver does not match the schema: unknown fields, wrong "
        "variable types, null for non-null fields, or Apollo cache missing id or __typename; "
        "regenerate types with codegen, return required data, define keyFields and merge "
        "functions.",
    ),
    Symptom(
        "mongoose-errors",
        r"(?-i:MongooseServerSelectionError|buffering timed out after|Buffering timed out after"
        r"|CastError: [Cc]ast to ObjectId failed|E11000\b duplicate key|MongoServerError)",
        "A MongoDB operation failed: no connection before queries, invalid ObjectId input, or a"
        " duplicate unique key; await the connection at startup, validate ids, handle duplicate"
        " keys and define indexes.",
    ),
    # Testing
    Symptom(
        "test-runner-setup",
        r"(?-i:Jest encountered an unexpected token|Jest failed to parse a file"
        r"|transformIgnorePatterns|toBeInTheDocument is not a function"
        r"|Property 'toBeInTheDocument' does not exist"
        r"|property 'toBeInTheDocument' does not exist|Invalid [Cc]hai property: toBe\w+"
        r"|invalid [Cc]hai property: toBe\w+)",
        "The test runner is misconfigured: ESM-only dependencies or TypeScript not transformed,"
        " CSS imports not mapped, jest-dom matchers not registered; configure transforms, "
        "transformIgnorePatterns and moduleNameMapper, import jest-dom in the setup file.",
    ),
    Symptom(
        "test-open-handles",
        r"(?-i:Jest did not exit one second after|detectOpenHandles|open handles?"
        r"|A worker process has failed to exit gracefully|Cannot log after tests are done"
        r"|cannot log after tests are done)",
        "Tests left servers, database connections, timers or promises running; close resources "
        "in afterAll, await async work, use fake timers, clean up mocks and subscriptions.",
    ),
    Symptom(
        "test-timeout",
        r"(?-i:Exceeded timeout of|exceeded timeout of|Test timed out in|test timed out in"
        r"|Hook timed out in|hook timed out in|Async callback was not invoked"
        r"|async callback was not invoked|Test timeout of [^\n]{0,20}exceeded"
        r"|test timeout of [^\n]{0,20}exceeded|testTimeout|hookTimeout)",
        "A test or hook did not finish in time: an unresolved promise, a missing await or done "
        "call, real network or timers, or slow setup; mock external services, use fake timers, "
        "await every async step, keep tests isolated and deterministic.",
    ),
    Symptom(
        "test-snapshot-mismatch",
        r"(?-i:Snapshot [^\n]{0,80}mismatched|snapshot [^\n]{0,80}mismatched|obsolete snapshot"
        r"|snapshots? failed|Snapshots? failed|toMatchSnapshot|toMatchInlineSnapshot"
        r"|--update-snapshot|toHaveScreenshot)",
        "Rendered output differs from the stored snapshot: an intended change not reviewed, or "
        "nondeterministic output (dates, random ids, locale); stabilise data, mock time, review"
        " diffs before updating, prefer explicit assertions.",
    ),
    Symptom(
        "test-mocking",
        r"(?-i:is not a mock function|There was an error when mocking a module"
        r"|there was an error when mocking a module|vi\.mock"
        r"|not allowed to reference any out-of-scope variables|Cannot spy the \w+ property"
        r"|cannot spy the \w+ property|Cannot redefine property|cannot redefine property"
        r"|jest\.mock\(|vi\.hoisted|\[MSW\]|without a matching request handler"
        r"|Without a matching request handler|onUnhandledRequest)",
        "A mock did not apply or a request had no handler: jest.mock and vi.mock are hoisted, "
        "factories cannot use outer variables, ESM exports are not spyable, MSW handlers "
        "missing; use vi.hoisted, dependency injection, handlers for every endpoint, reset "
        "mocks between tests.",
    ),
    Symptom(
        "testing-library-query",
        r"(?-i:Unable to find an? (accessible )?element|unable to find an? (accessible )?element"
        r"|TestingLibraryElementError|Found multiple elements (with|by)"
        r"|found multiple elements (with|by)|Unable to find role=|unable to find role=)",
        "A Testing Library query found no or several elements: text or role changed, content "
        "rendered asynchronously, or ambiguous queries; use findBy for async content, query by "
        "accessible role and name, scope with within.",
    ),
    Symptom(
        "e2e-locator",
        r"(?-i:locator\.\w+: [Tt]imeout|waiting for (locator|selector|getBy\w+)"
        r"|Waiting for (locator|selector|getBy\w+)|Timed out retrying after"
        r"|timed out retrying after|Expected to find element|expected to find element"
        r"|waiting for selector `[^`\n]+` failed|Waiting for selector `[^`\n]+` failed"
        r"|expect\(locator\)\.\w+ failed|Timeout [^\n]{0,20}exceeded|timeout [^\n]{0,20}exceeded"
        r"|strict mode violation|Strict mode violation|resolved to \d+ elements"
        r"|detached from the DOM|Node is detached from document"
        r"|Element is not attached to the DOM|element is not attached to the DOM)",
        "An end-to-end locator found no element, several elements, or a detached one: brittle "
        "selectors, slow data, re-renders; use role and test-id locators, web-first assertions "
        "with auto-waiting, never fixed sleeps, seed deterministic test data.",
    ),
    Symptom(
        "e2e-navigation-failure",
        r"(?-i:Navigation timeout of|navigation timeout of|net::ERR_[A-Z_]+"
        r"|Execution context was destroyed|execution context was destroyed"
        r"|Target (page, context or browser )?(has been )?closed"
        r"|target (page, context or browser )?(has been )?closed|TargetCloseError"
        r"|cy\.visit\(\) failed)",
        "A browser test navigated to a page that failed or closed: app server not started, "
        "wrong baseURL, or navigation during evaluation; start the server via webServer config,"
        " wait for load, configure baseURL per environment.",
    ),
    Symptom(
        "browser-binary-missing",
        r"(?-i:Executable doesn't exist at|executable doesn't exist at|npx playwright install"
        r"|Npx playwright install|Host system is missing dependencies"
        r"|host system is missing dependencies"
        r"|Could not find ([Cc]hrome|[Cc]hromium|expected browser)"
        r"|could not find ([Cc]hrome|[Cc]hromium|expected browser)"
        r"|Failed to launch the browser process|failed to launch the browser process"
        r"|No usable sandbox|no usable sandbox|Cypress binary is missing"
        r"|Cypress verification (failed|timed out))",
        "The test browser is not installed or cannot start: browsers not downloaded after an "
        "upgrade, missing system libraries, or sandbox restrictions in containers; install "
        "browsers with dependencies in CI, use the official images.",
        environment=True,
    ),
    Symptom(
        "coverage-threshold",
        r"(?-i:coverage threshold[^\n]{0,60}not met|Coverage threshold[^\n]{0,60}not met"
        r"|Coverage for \w+ [^\n]{0,30}does not meet|coverage for \w+ [^\n]{0,30}does not meet)",
        "Test coverage fell below the configured threshold; add tests for new code and "
        "branches, exclude generated files, never lower thresholds to pass.",
    ),
    Symptom(
        "storybook-errors",
        r"(?-i:SB_[A-Z_]+|Unable to index (files?|story)|unable to index (files?|story)"
        r"|Couldn't find story matching|couldn't find story matching|No story files found"
        r"|no story files found)",
        "Storybook could not load stories: CSF format errors, globs not matching, addon or "
        "framework versions out of sync; keep all @storybook packages on one version, follow "
        "CSF3, run the upgrade tool.",
    ),
    # Serverless and edge platforms
    Symptom(
        "serverless-timeout",
        r"(?-i:FUNCTION_INVOCATION_TIMEOUT|Task timed out after|task timed out after"
        r"|Function execution took [^\n]{0,40}timeout|function execution took [^\n]{0,40}timeout"
        r"|exceeded (the )?(maximum )?(execution|duration) (time|limit))",
        "A serverless function exceeded its time limit: slow external calls, cold start "
        "connection setup or work too heavy for a request; set timeouts on calls, reuse "
        "connections, move long work to queues or background jobs.",
    ),
    Symptom(
        "serverless-limits",
        r"(?-i:exceeded the unzipped maximum size|Unzipped size must be smaller"
        r"|unzipped size must be smaller|RequestEntityTooLarge|FUNCTION_PAYLOAD_TOO_LARGE"
        r"|exceeds? the (maximum )?size limit|Worker exceeded (size|the size)"
        r"|worker exceeded (size|the size)|exceeded CPU time limit|Worker exceeded (CPU|memory)"
        r"|worker exceeded (CPU|memory)|Too many subrequests|too many subrequests|Error 110[1-4]"
        r"|error 110[1-4]|Script startup exceeded|script startup exceeded)",
        "A serverless or edge platform limit was hit: bundle or payload size, CPU time, memory "
        "or subrequests; tree-shake and externalise large dependencies, move work out of global"
        " scope, stream uploads to object storage, use queues for heavy work.",
    ),
    Symptom(
        "lambda-handler-import",
        r"(?-i:Runtime\.ImportModuleError|Runtime\.HandlerNotFound|Runtime\.UserCodeSyntaxError"
        r"|is undefined or not exported|Runtime\.ExitError)",
        "Lambda could not load the handler: wrong handler path, ESM vs CommonJS mismatch, "
        "dependencies not bundled, or a runtime version mismatch; bundle with esbuild, match "
        "the handler name and module format, pin the runtime.",
    ),
    Symptom(
        "aws-credentials-missing",
        r"(?-i:CredentialsProviderError|Could not load credentials from any providers"
        r"|could not load credentials from any providers|ExpiredToken"
        r"|security token included in the request is (invalid|expired)"
        r"|Security token included in the request is (invalid|expired)"
        r"|UnrecognizedClientException)",
        "AWS credentials are missing or expired: no profile or role, expired SSO session, or "
        "wrong region; configure credentials through roles or environment, refresh SSO, never "
        "hard-code keys.",
        environment=True,
    ),
    Symptom(
        "http-403-forbidden",
        r"(?-i:403 [Ff]orbidden|status code 403|HTTP 403|statusCode\"?: ?403"
        r"|AccessDeniedException|is not authorized to perform|AccessDenied: [Aa]ccess [Dd]enied)",
        "The caller is authenticated but not allowed: missing role, scope, IAM permission or a "
        "resource policy; apply access control and least privilege, grant exact actions and "
        "resources, request the right scopes.",
    ),
    Symptom(
        "wrangler-bindings",
        r"(?-i:wrangler\.(toml|jsonc?)|wrangler (deploy|dev|publish)"
        r"|Wrangler (deploy|dev|publish)|KV namespace|D1_ERROR"
        r"|binding [\w\"']+ (not found|is not defined)"
        r"|Binding [\w\"']+ (not found|is not defined))",
        "Wrangler configuration or bindings are wrong: a KV, D1, R2 or secret binding missing "
        "for this environment, or types out of sync; declare bindings per environment, generate"
        " types with wrangler types, set secrets.",
    ),
    Symptom(
        "deno-permissions-imports",
        r"(?-i:Requires (net|read|write|env|run|ffi|sys|import) access"
        r"|requires (net|read|write|env|run|ffi|sys|import) access"
        r"|--allow-(net|read|write|env|run)|PermissionDenied|NotCapable"
        r"|Relative import path \"[^\"\n]+\" not prefixed"
        r"|relative import path \"[^\"\n]+\" not prefixed|Import \"[^\"\n]+\" not a dependency"
        r"|import \"[^\"\n]+\" not a dependency|is not a dependency and not in import map"
        r"|deno\.json)",
        "Deno denied access or could not map an import: permissions are off by default and bare"
        " specifiers need an import map or npm:/jsr: prefixes; grant the narrowest --allow "
        "flags, declare imports and tasks in deno.json.",
    ),
    Symptom(
        "bun-compatibility",
        r"(?-i:Bun has crashed|panic\(main thread\)|not (yet )?implemented in [Bb]un"
        r"|Bun does not (yet )?support|bun\.lockb?)",
        "Bun lacks or differs on a Node API, or a native addon is incompatible; check Bun's "
        "Node compatibility, update Bun, fall back to Node for unsupported packages.",
    ),
    Symptom(
        "convex-errors",
        r"(?-i:ArgumentValidationError|Value does not match validator"
        r"|value does not match validator|Object contains extra field"
        r"|object contains extra field|Schema validation failed|schema validation failed"
        r"|does not match the schema|is not a valid [Cc]onvex value"
        r"|Could not find (public )?function for|could not find (public )?function for"
        r"|Only actions can be defined in [Nn]ode|only actions can be defined in [Nn]ode"
        r"|\"use node\"|Can't use fetch\(\) in queries|can't use fetch\(\) in queries"
        r"|Too many (reads|documents read|bytes read)|too many (reads|documents read|bytes read)"
        r"|OptimisticConcurrencyControlFailure)",
        "Convex rejected data or a function: values not matching validators or the schema, "
        "functions not deployed, fetch in queries or mutations, Node code outside actions, read"
        " limits; define args validators, run convex dev, use actions for side effects, index "
        "queries.",
    ),
    Symptom(
        "supabase-row-level-security",
        r"(?-i:violates row-level security policy|Violates row-level security policy"
        r"|row-level security|Row-level security|PGRST301"
        r"|permission denied for (table|schema|relation|sequence)"
        r"|Permission denied for (table|schema|relation|sequence))",
        "Row Level Security or grants block the query: no policy for this role and operation, "
        "anon key used instead of an authenticated session; write explicit RLS policies per "
        "operation, keep the service role key on the server only.",
    ),
    Symptom(
        "supabase-postgrest",
        r"(?-i:PGRST\d{3}\b|in the schema cache|Could not find a relationship between"
        r"|could not find a relationship between"
        r"|JSON object requested, multiple \(or no\) rows returned)",
        "PostgREST cannot serve the query: schema cache stale after a migration, an unknown "
        "column or relation, or single() on zero or many rows; reload the schema, generate "
        "types, use maybeSingle for optional rows.",
    ),
    Symptom(
        "auth-session-errors",
        r"(?-i:AuthApiError|AuthSessionMissingError|Auth session missing|auth session missing"
        r"|Invalid [Rr]efresh [Tt]oken|invalid [Rr]efresh [Tt]oken|refresh_token_not_found"
        r"|Invalid login credentials|invalid login credentials|Email not confirmed"
        r"|email not confirmed"
        r"|auth/(invalid-credential|user-not-found|wrong-password|too-many-requests|unauthorized-domain|network-request-failed|email-already-in-use|invalid-api-key))",
        "Authentication failed: expired or missing session, refresh token reused, wrong "
        "credentials or an unauthorized domain; refresh sessions with the SDK, handle auth "
        "state changes, configure redirect URLs and domains.",
    ),
    Symptom(
        "firebase-security-rules",
        r"(?-i:Missing or insufficient permissions|missing or insufficient permissions"
        r"|permission-denied|PERMISSION_DENIED)",
        "Firestore, Storage or cloud security rules denied the request: no matching rule, the "
        "user not authenticated yet, or rules not deployed; write least-privilege rules tested "
        "with the emulator, wait for auth state before querying.",
    ),
    Symptom(
        "firebase-app-and-index",
        r"(?-i:Firebase [Aa]pp named '[^'\n]*' already exists"
        r"|No [Ff]irebase [Aa]pp '[^'\n]*' has been created"
        r"|no [Ff]irebase [Aa]pp '[^'\n]*' has been created|app/(no-app|duplicate-app)"
        r"|The query requires an index|the query requires an index|FAILED_PRECONDITION)",
        "Firebase was initialised twice or not at all, or a compound query lacks a composite "
        "index; initialise once in a shared module (getApps check), declare indexes in "
        "firestore.indexes.json and deploy them.",
    ),
    # Mobile: React Native, Expo
    Symptom(
        "rn-metro-resolve",
        r"(?-i:Unable to resolve module|unable to resolve module|None of these files exist"
        r"|none of these files exist|Unable to resolve \"[^\"\n]+\" from"
        r"|unable to resolve \"[^\"\n]+\" from|Metro has encountered an error)",
        "Metro could not resolve an import: a package not installed, a stale cache, symlinked "
        "monorepo packages or a Node-only library; install it, reset the Metro cache, configure"
        " watchFolders, use React Native compatible packages.",
    ),
    Symptom(
        "rn-native-module-linking",
        r"(?-i:requireNativeComponent: \"\w+\" was not found|TurboModuleRegistry\.getEnforcing"
        r"|doesn't seem to be linked|Native module \w+ (cannot be null|tried to override)"
        r"|native module \w+ (cannot be null|tried to override)|Cannot find native module"
        r"|cannot find native module|has not been registered)",
        "A native module is not in the built app: pods not installed, no rebuild after adding a"
        " native dependency, Expo Go lacking it, or an AppRegistry name mismatch; rebuild the "
        "dev client, run pod install, prebuild.",
    ),
    Symptom(
        "rn-render-rules",
        r"(?-i:Text strings must be rendered within a <Text> component"
        r"|text strings must be rendered within a <Text> component"
        r"|VirtualizedLists should never be nested|You have a large list that is slow to update"
        r"|you have a large list that is slow to update)",
        "React Native rendering rules were broken: raw text outside Text, a FlatList inside a "
        "ScrollView, or unoptimised lists; wrap text, use one virtualized list, keyExtractor "
        "and memoized items.",
    ),
    Symptom(
        "expo-sdk-version",
        r"(?-i:dependencies are incompatible with the installed expo version"
        r"|Dependencies are incompatible with the installed expo version|expo install --fix"
        r"|incompatible with this version of [Ee]xpo Go"
        r"|Incompatible with this version of [Ee]xpo Go|expo doctor|EAS [Bb]uild failed)",
        "Package versions do not match the Expo SDK; install native packages with npx expo "
        "install, run expo doctor, upgrade the SDK and dependencies together.",
    ),
    # Mobile: iOS, Swift, Xcode
    Symptom(
        "ios-build-dependencies",
        r"(?-i:CocoaPods could not find compatible versions|Unable to find a specification for"
        r"|unable to find a specification for"
        r"|The sandbox is not in sync with the [Pp]odfile\.lock"
        r"|the sandbox is not in sync with the [Pp]odfile\.lock|pod install|pod repo update"
        r"|PhaseScriptExecution failed|ld: library not found for"
        r"|Undefined symbols? for architecture|undefined symbols? for architecture"
        r"|building for iOS [Ss]imulator, but linking in object file"
        r"|Building for iOS [Ss]imulator, but linking in object file|No such module '\w+'"
        r"|no such module '\w+'|Linker command failed|linker command failed)",
        "The iOS build failed on dependencies or linking: Podfile.lock out of sync, missing "
        "pods or frameworks, architecture mismatch, failing build phase scripts; run pod "
        "install after changes, open the workspace, align deployment targets, clean the build "
        "folder.",
    ),
    Symptom(
        "ios-code-signing",
        r"(?-i:requires a development team|No signing certificate|no signing certificate"
        r"|Provisioning profile|provisioning profile|Code ?[Ss]igning [Ee]rror"
        r"|code ?[Ss]igning [Ee]rror|errSecInternalComponent"
        r"|No profiles for '[^'\n]+' were found|no profiles for '[^'\n]+' were found)",
        "Code signing is not configured: no team, certificate or provisioning profile for this "
        "bundle id, or the keychain locked in CI; configure automatic signing or fastlane "
        "match, store certificates securely.",
        environment=True,
    ),
    Symptom(
        "swift-runtime-crash",
        r"(?-i:Unexpectedly found nil while (implicitly )?unwrapping"
        r"|unexpectedly found nil while (implicitly )?unwrapping"
        r"|Value of optional type '[^'\n]+' must be unwrapped"
        r"|value of optional type '[^'\n]+' must be unwrapped|EXC_BAD_ACCESS"
        r"|Fatal error: [Ii]ndex out of range|fatal error: [Ii]ndex out of range|EXC_BREAKPOINT"
        r"|Thread \d+: signal SIGABRT|thread \d+: signal SIGABRT)",
        "A Swift app crashed on nil, bounds or memory: force unwraps, index out of range, force"
        " casts or deallocated objects; use if let and guard let, optional chaining, check "
        "bounds, weak self in closures, avoid force unwraps and casts.",
    ),
    Symptom(
        "swift-concurrency-isolation",
        r"(?-i:actor-isolated|risks causing data races|non-sendable"
        r"|does not conform to the 'Sendable'|Publishing changes from background threads"
        r"|publishing changes from background threads|UI API called on a background thread)",
        "Swift concurrency isolation was violated: UI state touched off the main actor or "
        "non-Sendable values crossing actors; mark UI code @MainActor, make types Sendable, use"
        " actors for shared mutable state.",
    ),
    Symptom(
        "swift-types-codable",
        r"(?-i:does not conform to protocol '\w+'|Type '[^'\n]+' does not conform"
        r"|type '[^'\n]+' does not conform"
        r"|unable to type-check this expression in reasonable time|keyNotFound\(|typeMismatch\("
        r"|valueNotFound\(|dataCorrupted\(|The data couldn.t be read because it"
        r"|the data couldn.t be read because it)",
        "A Swift type does not satisfy a protocol or its JSON: missing Codable, Hashable or "
        "View requirements, keys or nullability differing from the API, or expressions too "
        "complex; use CodingKeys and optionals, decoding strategies, explicit types, smaller "
        "views.",
    ),
    # Mobile: Android, Kotlin, Gradle
    Symptom(
        "kotlin-lateinit-null",
        r"(?-i:UninitializedPropertyAccessException"
        r"|lateinit property \w+ has not been initialized|KotlinNullPointerException"
        r"|Only safe \(\?\.\) or non-null asserted|only safe \(\?\.\) or non-null asserted)",
        "A Kotlin property was read before initialisation or a nullable used unsafely; "
        "initialise in constructors, prefer nullable types with safe calls over lateinit and "
        "!!, respect lifecycle order.",
    ),
    Symptom(
        "android-threading-compose",
        r"(?-i:NetworkOnMainThreadException|CalledFromWrongThreadException"
        r"|Only the original thread that created a view hierarchy"
        r"|only the original thread that created a view hierarchy"
        r"|Application [Nn]ot [Rr]esponding|application [Nn]ot [Rr]esponding|ANR\b"
        r"|@Composable invocations can only happen from the context of a @[Cc]omposable"
        r"|Module with the [Mm]ain dispatcher is missing"
        r"|module with the [Mm]ain dispatcher is missing|JobCancellationException)",
        "Work ran on the wrong thread or context: network or disk on the main thread, UI "
        "touched from background threads, composables or coroutines used outside their scope; "
        "use Dispatchers.IO, lifecycle-aware scopes, @Composable only in composition, handle "
        "cancellation.",
    ),
    Symptom(
        "android-manifest-permissions",
        r"(?-i:Manifest merger failed|manifest merger failed|android:exported"
        r"|ActivityNotFoundException|SecurityException: [Pp]ermission [Dd]enial"
        r"|have you declared this activity in your AndroidManifest"
        r"|Have you declared this activity in your AndroidManifest)",
        "The Android manifest is incomplete or conflicting: activities not declared, "
        "android:exported missing for API 31+, permissions not requested at runtime; declare "
        "components, request runtime permissions.",
    ),
    Symptom(
        "gradle-dependency-resolution",
        r"(?-i:Could not resolve all (files|dependencies|artifacts) for configuration"
        r"|could not resolve all (files|dependencies|artifacts) for configuration"
        r"|Could not find [\w.-]+:[\w.-]+:|could not find [\w.-]+:[\w.-]+:"
        r"|Duplicate class [\w.$]+ found in modules|duplicate class [\w.$]+ found in modules"
        r"|Could not resolve [\w.-]+:[\w.-]+:|could not resolve [\w.-]+:[\w.-]+:"
        r"|Missing classes detected while running R8|missing classes detected while running R8"
        r"|R8: |ProGuard|missing_rules\.txt)",
        "Gradle or R8 could not resolve or keep classes: missing repositories, wrong versions, "
        "duplicate artifacts, or shrinking removing reflective classes; declare repositories, "
        "use version catalogs and BOMs, exclude conflicts, add keep rules, test release builds.",
    ),
    Symptom(
        "gradle-jdk-agp-version",
        r"(?-i:Unsupported class file major version|unsupported class file major version"
        r"|Android [Gg]radle plugin requires [Jj]ava \d+"
        r"|compileSdk(Version)? [^\n]{0,40}(requires|higher)|minSdkVersion \d+ cannot be smaller"
        r"|Incompatible [Gg]radle JVM|incompatible [Gg]radle JVM"
        r"|requires (a )?newer version of the [Aa]ndroid [Gg]radle plugin)",
        "Toolchain versions are incompatible: JDK, Gradle, Android Gradle Plugin, Kotlin and "
        "compileSdk or minSdk must match; pin the JDK toolchain, upgrade AGP and Gradle "
        "together, align SDK levels with dependencies.",
    ),
    # Mobile: Flutter, Dart
    Symptom(
        "dart-null-and-types",
        r"(?-i:Null check operator used on a null value|null check operator used on a null value"
        r"|LateInitializationError"
        r"|can't be unconditionally accessed because the receiver can be 'null'"
        r"|Can't be unconditionally accessed because the receiver can be 'null'"
        r"|Non-nullable instance field '\w+' must be initialized"
        r"|non-nullable instance field '\w+' must be initialized"
        r"|can't be assigned to the (parameter|variable) type"
        r"|Can't be assigned to the (parameter|variable) type|A value of type '[^'\n]+' can't be"
        r"|is not a subtype of type)",
        "A Dart value was null or of the wrong type: the bang operator on null, late fields "
        "unset, dynamic JSON cast implicitly; embrace sound null safety, check for null, type "
        "JSON models with fromJson, avoid dynamic, initialise late fields.",
    ),
    Symptom(
        "flutter-layout-overflow",
        r"(?-i:RenderFlex overflowed|unbounded (height|width)|RenderBox was not laid out"
        r"|BoxConstraints forces an infinite|Incorrect use of ParentDataWidget"
        r"|incorrect use of ParentDataWidget)",
        "A Flutter layout got unbounded or insufficient constraints: a ListView in a Column, "
        "Expanded outside Flex, or fixed sizes overflowing; wrap with Expanded or Flexible, "
        "constrain scrollables, use LayoutBuilder for responsive layout.",
    ),
    Symptom(
        "flutter-context-lifecycle",
        r"(?-i:setState\(\) called after dispose|no longer has a context"
        r"|deactivated widget's ancestor|use_build_context_synchronously"
        r"|setState\(\) or markNeedsBuild\(\) called during build"
        r"|No (MaterialLocalizations|[Mm]aterial widget|[Dd]irectionality widget|MediaQuery"
        r" widget) (ancestor )?found"
        r"|no (MaterialLocalizations|[Mm]aterial widget|[Dd]irectionality widget|MediaQuery"
        r" widget) (ancestor )?found|Could not find the correct [Pp]rovider<"
        r"|could not find the correct [Pp]rovider<)",
        "A BuildContext was used after dispose, during build, or without a required ancestor "
        "(MaterialApp, Scaffold, Provider); check mounted after await, cancel streams in "
        "dispose, wrap trees correctly, use Builder for a context below providers.",
    ),
    Symptom(
        "flutter-pub-plugins",
        r"(?-i:version solving failed|pub get failed|MissingPluginException"
        r"|No implementation found for method \w+ on channel"
        r"|no implementation found for method \w+ on channel)",
        "Dart packages conflict or a plugin lacks its native side: incompatible version "
        "constraints, or no full rebuild after adding a plugin; relax constraints, upgrade "
        "together, run a full restart and rebuild.",
    ),
    # Web protocols
    Symptom(
        "web-cors",
        r"(?-i:blocked by CORS policy|Blocked by CORS policy"
        r"|No 'Access-Control-Allow-Origin' header|no 'Access-Control-Allow-Origin' header"
        r"|Cross-Origin [Rr]equest [Bb]locked|cross-Origin [Rr]equest [Bb]locked"
        r"|preflight request doesn't pass|Preflight request doesn't pass"
        r"|CORS (error|request did not succeed|header)|credentials mode is 'include'"
        r"|Credentials mode is 'include')",
        "The server does not allow this origin: missing Access-Control-Allow-Origin, preflight "
        "OPTIONS not handled, or wildcard with credentials; configure CORS on the server with "
        "an explicit origin allowlist, or proxy requests through the same origin.",
    ),
    Symptom(
        "web-csp-mixed-content",
        r"(?-i:Content [Ss]ecurity [Pp]olicy|content [Ss]ecurity [Pp]olicy"
        r"|Refused to (load|execute|apply|connect|frame|evaluate)"
        r"|refused to (load|execute|apply|connect|frame|evaluate)|unsafe-(inline|eval)"
        r"|Mixed [Cc]ontent:|mixed [Cc]ontent:|requested an insecure)",
        "The browser blocked a resource: the Content Security Policy forbids the script, style "
        "or origin, or an HTTPS page requested HTTP; avoid inline scripts and eval, use nonces "
        "or hashes, list required origins, use HTTPS URLs everywhere.",
    ),
    Symptom(
        "web-cookies-csrf",
        r"(?-i:SameSite|This [Ss]et-Cookie was blocked|this [Ss]et-Cookie was blocked"
        r"|cookie [^\n]{0,80}(rejected|blocked)|third-party cookie|Third-party cookie"
        r"|Cookie “[^”\n]+” has been rejected|cookie “[^”\n]+” has been rejected"
        r"|invalid csrf token|Invalid csrf token|CSRF token (missing|mismatch|invalid)"
        r"|EBADCSRFTOKEN|CSRF verification failed)",
        "Cookies or CSRF tokens were not sent or rejected: SameSite=None without Secure, "
        "cross-site requests, wrong domain, or forms and fetches missing the token; set Secure,"
        " HttpOnly and SameSite deliberately, send credentials, include CSRF tokens.",
    ),
    Symptom(
        "http-401-unauthorized",
        r"(?-i:401 [Uu]nauthorized|status code 401|HTTP 401|statusCode\"?: ?401"
        r"|401\b[^\n]{0,40}(unauthori[sz]ed|authentication))",
        "The request lacks valid credentials: missing, expired or wrong token or API key, an "
        "unset secret, or a wrong auth header format; check configuration, refresh tokens, send"
        " Authorization correctly.",
        environment=True,
    ),
    Symptom(
        "http-404-not-found",
        r"(?-i:404 [Nn]ot [Ff]ound|status code 404|HTTP 404|statusCode\"?: ?404)",
        "The URL or resource does not exist: wrong base URL, API version or route, trailing "
        "slash, or a deleted record; keep URLs in configuration, handle not-found explicitly.",
    ),
    Symptom(
        "http-400-validation",
        r"(?-i:400 [Bb]ad [Rr]equest|status code 4(00|22)|HTTP 4(00|22)|422 [Uu]nprocessable"
        r"|405 [Mm]ethod [Nn]ot [Aa]llowed|415 [Uu]nsupported [Mm]edia [Tt]ype"
        r"|413 ([Pp]ayload|[Rr]equest [Ee]ntity) [Tt]oo [Ll]arge|PayloadTooLargeError"
        r"|request entity too large|Request entity too large)",
        "The server rejected the request shape or size: invalid body, wrong content-type or "
        "method, missing fields, or a body above limits; validate input against the API schema,"
        " send correct headers, read the error body, upload large files to object storage.",
    ),
    Symptom(
        "http-429-rate-limit",
        r"(?-i:429 [Tt]oo [Mm]any [Rr]equests|status code 429|HTTP 429"
        r"|Rate limit (exceeded|reached)|rate limit (exceeded|reached)|RateLimitError"
        r"|rate_limit_exceeded|Too [Mm]any [Rr]equests|too [Mm]any [Rr]equests)",
        "The API rate limit was exceeded; retry with exponential backoff and jitter honouring "
        "Retry-After, throttle concurrency, cache responses, batch requests.",
    ),
    Symptom(
        "http-500-server-error",
        r"(?-i:500 [Ii]nternal [Ss]erver [Ee]rror|status code 500|HTTP 500|statusCode\"?: ?500)",
        "The server threw an unhandled exception; read server logs, add error handling "
        "middleware, validate inputs, return meaningful status codes.",
    ),
    Symptom(
        "http-5xx-upstream",
        r"(?-i:Bad [Gg]ateway|bad [Gg]ateway|Service [Uu]navailable|service [Uu]navailable"
        r"|Gateway [Tt]ime-?out|gateway [Tt]ime-?out|status code 50[234]|HTTP 50[234])",
        "An upstream service is down, overloaded or too slow behind a proxy; add health checks,"
        " timeouts and retries with backoff, circuit breakers, scale or fix the upstream.",
        environment=True,
    ),
    Symptom(
        "tls-certificate",
        r"(?-i:UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN"
        r"|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_HAS_EXPIRED|unable to get local issuer certificate"
        r"|Unable to get local issuer certificate|self[- ]signed certificate"
        r"|Self[- ]signed certificate|ERR_TLS_CERT_ALTNAME_INVALID|does not match certificate"
        r"|certificate has expired|Certificate has expired|ERR_CERT_[A-Z_]+|wrong version number"
        r"|Wrong version number)",
        "TLS verification failed: a corporate proxy or self-signed CA, an expired certificate, "
        "a hostname mismatch or HTTP on an HTTPS port; install the CA via NODE_EXTRA_CA_CERTS, "
        "renew certificates, never disable verification.",
        environment=True,
    ),
    Symptom(
        "web-websocket",
        r"(?-i:WebSocket connection to '[^'\n]+' failed"
        r"|WebSocket is (already )?in CLOSING or CLOSED|WebSocket is not open"
        r"|Unexpected server response: \d+|unexpected server response: \d+|xhr poll error"
        r"|code 1006\b)",
        "A WebSocket failed or closed: the server or proxy does not upgrade connections, wrong "
        "URL or protocol (ws vs wss), or idle timeouts; configure proxy upgrade headers, add "
        "heartbeats and reconnection with backoff, check readyState before sending.",
    ),
    Symptom(
        "oauth-auth-config",
        r"(?-i:invalid_grant|redirect_uri_mismatch|invalid_client|unauthorized_client"
        r"|invalid_scope|code_verifier|OAuthCallbackError|OAuthAccountNotLinked|state mismatch"
        r"|NEXTAUTH_(SECRET|URL)|AUTH_SECRET\b|\[next-auth\]\[error\]|\[auth\]\[error\]"
        r"|MissingSecret|NO_SECRET|UntrustedHost|JWTSessionError|CLIENT_FETCH_ERROR)",
        "The OAuth or Auth.js setup failed: redirect URI not registered exactly, code reused, "
        "PKCE verifier or state lost, missing AUTH_SECRET or untrusted host; register redirect "
        "URIs per environment, use PKCE and state, configure secrets server-side.",
        environment=True,
    ),
    Symptom(
        "jwt-verification",
        r"(?-i:JsonWebTokenError|TokenExpiredError|jwt (expired|malformed)|invalid signature"
        r"|Invalid signature|JWTExpired|JWSSignatureVerificationFailed|JWTClaimValidationFailed)",
        "A JWT failed verification: expired, signed with another secret or algorithm, wrong "
        "audience or issuer, or clock skew; verify with the correct key and algorithms, refresh"
        " tokens, keep expiry short, never decode without verifying.",
    ),
    # Browser and editor extensions, MCP
    Symptom(
        "browser-extension",
        r"(?-i:Receiving end does not exist|receiving end does not exist"
        r"|Extension context invalidated|extension context invalidated"
        r"|Unchecked runtime\.lastError|unchecked runtime\.lastError"
        r"|message port closed before a response was received"
        r"|Message port closed before a response was received|Could not load manifest"
        r"|could not load manifest|Manifest version 2 is deprecated"
        r"|manifest version 2 is deprecated|Missing host permission|missing host permission"
        r"|Cannot access contents of|cannot access contents of|Cannot access a chrome:// URL"
        r"|cannot access a chrome:// URL|Service worker registration failed"
        r"|service worker registration failed|requires manifest version of 2 or lower)",
        "A browser extension failed on messaging or Manifest V3 rules: no listener in the "
        "target, async sendResponse without returning true, background scripts instead of a "
        "service worker, missing host permissions; migrate to MV3, request minimal permissions.",
    ),
    Symptom(
        "vscode-extension",
        r"(?-i:Activating extension [^\n]{0,80}failed|activating extension [^\n]{0,80}failed"
        r"|command '[\w.-]+' not found|Cannot find module 'vscode'|cannot find module 'vscode'"
        r"|Extension host terminated|extension host terminated|activationEvents|vsce\b"
        r"|engines\.vscode|Make sure to edit the README\.md|make sure to edit the README\.md"
        r"|missing publisher|Missing publisher|@types/vscode [^\n]{0,40}greater than)",
        "A VS Code extension did not activate, register commands or package: missing "
        "contributes or activation events, vscode bundled as a dependency, engines.vscode and "
        "@types/vscode mismatched; declare commands, bundle with esbuild, mark vscode external.",
    ),
    Symptom(
        "mcp-protocol",
        r"(?-i:MCP error|McpError|JSON-RPC|Invalid JSON-RPC message|invalid JSON-RPC message"
        r"|Method not found: [\w/]+|method not found: [\w/]+)",
        "An MCP client and server disagree on the protocol: stdout polluted by logs in a stdio "
        "server, an unsupported method or protocol version, or malformed messages; log to "
        "stderr only, use the official SDK, negotiate capabilities.",
    ),
    Symptom(
        "mcp-server-launch",
        r"(?-i:MCP server [^\n]{0,80}(failed|exited|disconnected|error)"
        r"|Failed to (connect to|start|spawn) (the )?MCP server"
        r"|failed to (connect to|start|spawn) (the )?MCP server|spawn (npx|node|uvx|bunx) ENOENT"
        r"|mcp\.json)",
        "An MCP server process could not start or stay connected: wrong command path, missing "
        "runtime, env vars not passed, or a crash on startup; use absolute paths, pass env "
        "explicitly, test the server standalone.",
    ),
    Symptom(
        "mcp-tool-schema",
        r"(?-i:Invalid (tool|input) schema|invalid (tool|input) schema|inputSchema"
        r"|Invalid params|invalid params|Unknown tool|unknown tool|Tool [\w-]+ not found"
        r"|tool [\w-]+ not found)",
        "An MCP tool call did not match the declared tool: unknown name or arguments not valid "
        "for its JSON Schema; declare precise input schemas with Zod, validate arguments, "
        "return errors as tool results.",
    ),
)
