"""Failure glossary: Python, data and ML, databases, PHP, Ruby, R, .NET and Elixir errors."""

from __future__ import annotations

from fireworks_skill_memory.memory.retrieval.glossary.symptom import Symptom

SYMPTOMS: tuple[Symptom, ...] = (
    Symptom(
        name="python-module-not-found",
        pattern=(
            r"(?-i:ModuleNotFoundError: No module named"
            r"|ImportError: No module named)"
        ),
        explains=(
            "The package is not installed in the active virtual environment, the wrong "
            "interpreter runs, or the dependency is undeclared; use one venv per project, "
            "declare and pin dependencies in pyproject.toml or requirements, run tools with "
            "python -m."
        ),
    ),
    Symptom(
        name="python-relative-import",
        pattern=(
            r"(?-i:attempted relative import with no known parent package"
            r"|attempted relative import beyond top-level package)"
        ),
        explains=(
            "A module inside a package was run as a script, or the package layout lacks "
            "__init__.py; use absolute imports, run modules with python -m package.module, "
            "use a src layout and an installed editable package."
        ),
    ),
    Symptom(
        name="python-cannot-import-name",
        pattern=(
            r"(?-i:ImportError: cannot import name"
            r"|partially initialized module)"
        ),
        explains=(
            "A circular import between modules, a name renamed or removed in a newer library "
            "version, or a local file shadowing a library; break import cycles, move shared "
            "code to a separate module, pin dependency versions."
        ),
    ),
    Symptom(
        name="python-none-attribute",
        pattern=(
            r"(?-i:'NoneType' object (has no attribute|is not (subscriptable|iterable|callable)))"
        ),
        explains=(
            "A function returned None (missing return, failed lookup, optional value) and the "
            "result was used unchecked; guard Optional values, return explicitly, handle the "
            "not-found case, and type-check with strict mypy."
        ),
    ),
    Symptom(
        name="python-attribute-error",
        pattern=(
            r"(?-i:AttributeError: (module |type object )?'(?!NoneType)[\w.]{1,80}' (object )?has no attribute)"  # noqa: E501
        ),
        explains=(
            "An attribute or method is missing: wrong object type, API changed between "
            "library versions, a typo, or a module shadowed by a local file; pin versions, "
            "use type hints and a type checker, avoid naming files like libraries."
        ),
    ),
    Symptom(
        name="python-call-signature",
        pattern=(
            r"(?-i:missing \d+ required (positional|keyword-only) arguments?"
            r"|takes \d+ positional arguments? but \d+ (were|was) given"
            r"|got an unexpected keyword argument"
            r"|got multiple values for argument)"
        ),
        explains=(
            "A function was called with the wrong arguments: signature changed, self missing "
            "from a method, or a library API upgrade; keep signatures typed, use keyword "
            "arguments, check the changelog and pin versions."
        ),
    ),
    Symptom(
        name="python-operand-type",
        pattern=(
            r"(?-i:unsupported operand type\(s\) for (?!\|)"
            r"|can only concatenate (str|list|tuple)"
            r"|must be str, not \w+"
            r"|can't multiply sequence by non-int)"
        ),
        explains=(
            "Values of incompatible types were combined, often input strings not converted to "
            "numbers or None leaking in; validate and convert input at the boundary, use "
            "f-strings, annotate types and run mypy."
        ),
    ),
    Symptom(
        name="python-key-error",
        pattern=(r"(?-i:KeyError: (?!'[A-Z][A-Z0-9_]{2,}'))"),
        explains=(
            "A dict key is missing: unexpected input shape, a typo, or data from an API that "
            "lacks the field; use dict.get with a default, validate input with a schema "
            "(dataclass, Pydantic), use typed records instead of raw dicts."
        ),
    ),
    Symptom(
        name="python-env-var-missing",
        pattern=(
            r"(?-i:KeyError: '[A-Z][A-Z0-9_]{2,}'"
            "|environment variable [\\w'\\\"]{1,60} (is )?not set"
            r"|Missing required environment variable)"
        ),
        explains=(
            "Configuration read from os.environ is absent in this environment; load settings "
            "in one place with defaults and validation (pydantic-settings, environ), document "
            "required variables in .env.example, fail fast at startup."
        ),
    ),
    Symptom(
        name="python-index-error",
        pattern=(
            r"(?-i:IndexError: (list|tuple|string) index out of range"
            r"|IndexError: index \d+ is out of bounds)"
        ),
        explains=(
            "A sequence was indexed past its end, often an empty result or an off-by-one; "
            "check length or emptiness first, iterate instead of indexing, handle empty query "
            "results and edge cases in tests."
        ),
    ),
    Symptom(
        name="python-unpack-values",
        pattern=(
            r"(?-i:too many values to unpack"
            r"|not enough values to unpack)"
        ),
        explains=(
            "Tuple unpacking got a different number of items than names, e.g. iterating a "
            "dict without .items() or a changed return shape; use dict.items(), return typed "
            "named tuples or dataclasses."
        ),
    ),
    Symptom(
        name="python-unicode-error",
        pattern=(
            r"(?-i:UnicodeDecodeError"
            r"|UnicodeEncodeError"
            r"|codec can't (decode|encode) (byte|character))"
        ),
        explains=(
            "Bytes were decoded with the wrong or platform default encoding; always pass "
            'encoding="utf-8" to open() and read_text(), decode at the I/O boundary, handle '
            "BOM, set PYTHONIOENCODING or UTF-8 mode."
        ),
    ),
    Symptom(
        name="python-recursion-depth",
        pattern=(
            r"(?-i:RecursionError: maximum recursion depth exceeded"
            r"|maximum recursion depth exceeded)"
        ),
        explains=(
            "Unbounded recursion: a missing base case, a property or __getattr__ calling "
            "itself, or circular references during serialization; add a base case, iterate "
            "instead of recursing, break cycles."
        ),
    ),
    Symptom(
        name="python-syntax-error",
        pattern=(
            r"(?-i:SyntaxError: (invalid syntax|unexpected EOF|unterminated|expected|invalid character|f-string|cannot assign|positional argument follows)"  # noqa: E501
            r"|IndentationError"
            r"|TabError: inconsistent use of tabs)"
        ),
        explains=(
            "Source code does not parse: typo, unbalanced brackets, mixed tabs and spaces, or "
            "syntax newer than the running Python version; run a formatter and linter before "
            "executing, pin requires-python."
        ),
    ),
    Symptom(
        name="python-name-error",
        pattern=(
            r"(?-i:NameError: name '\w+' is not defined"
            r"|UnboundLocalError"
            r"|free variable '\w+' referenced before assignment)"
        ),
        explains=(
            "A name is used before it is defined or imported, or a local assignment shadows a "
            "global inside a function; import explicitly, avoid global mutable state, let a "
            "linter (F821) flag undefined names."
        ),
    ),
    Symptom(
        name="python-file-not-found",
        pattern=(
            r"(?-i:FileNotFoundError"
            r"|\[Errno 2\] No such file or directory)"
        ),
        explains=(
            "An input file or directory is missing, or a relative path depends on the current "
            "working directory; build paths from __file__ or pathlib with absolute roots, "
            "check existence, create directories with mkdir(parents=True)."
        ),
        environment=True,
    ),
    Symptom(
        name="python-permission-error",
        pattern=(
            r"(?-i:PermissionError: \[Errno 13\]"
            r"|\[Errno 13\] Permission denied)"
        ),
        explains=(
            "The process lacks permission on a file, directory or port: system path, file "
            "owned by root, read-only mount; write to user or temp directories, never sudo "
            "pip, set ownership in the container."
        ),
        environment=True,
    ),
    Symptom(
        name="python-pep668-externally-managed",
        pattern=(
            r"(?-i:externally-managed-environment"
            r"|This environment is externally managed)"
        ),
        explains=(
            "pip tried to install into the system Python protected by PEP 668; create a "
            "virtual environment (python -m venv, uv venv), use pipx for tools, never pip "
            "install --break-system-packages or sudo pip."
        ),
    ),
    Symptom(
        name="python-dict-changed-during-iteration",
        pattern=(
            r"(?-i:(dictionary|set) changed size during iteration"
            r"|deque mutated during iteration)"
        ),
        explains=(
            "A collection was mutated while being iterated, or shared between threads without "
            "a lock; iterate over a copy (list(d.items())), build a new collection, protect "
            "shared state with a lock."
        ),
    ),
    Symptom(
        name="python-unhashable",
        pattern=(r"(?-i:unhashable type: ')"),
        explains=(
            "A mutable value (list, dict, set, non-frozen dataclass) was used as a dict key "
            "or set member; use tuples, frozenset or frozen dataclasses for keys."
        ),
    ),
    Symptom(
        name="python-value-parse",
        pattern=(
            r"(?-i:invalid literal for int\(\) with base"
            r"|could not convert string to float)"
        ),
        explains=(
            "Unvalidated text input was converted to a number: empty strings, thousands "
            "separators, headers or NaN markers; validate and parse input at the boundary "
            "with a schema, handle missing values explicitly."
        ),
    ),
    Symptom(
        name="python-json-decode",
        pattern=(
            r"(?-i:JSONDecodeError"
            r"|Expecting value:"
            r"|Expecting property name enclosed in double quotes)"
        ),
        explains=(
            "Text that is not JSON was parsed: an empty body, an HTML error page, or a "
            "non-2xx response; check the status code and content type before decoding, handle "
            "errors explicitly, validate with a schema."
        ),
    ),
    Symptom(
        name="python-json-not-serializable",
        pattern=(
            r"(?-i:Object of type \w+ is not JSON serializable"
            r"|is not JSON serializable"
            r"|kombu\.exceptions\.EncodeError)"
        ),
        explains=(
            "datetime, Decimal, UUID, sets or ORM objects were passed to json or a task "
            "queue; serialise explicitly to primitives (isoformat, str), use a custom encoder "
            "or Pydantic model_dump, pass ids not objects to tasks."
        ),
    ),
    Symptom(
        name="python-pickle-error",
        pattern=(
            r"(?-i:Can't pickle"
            r"|cannot pickle '[^'\n]{1,60}' object"
            r"|PicklingError"
            r"|Can't get attribute '\w+' on)"
        ),
        explains=(
            "An object sent to another process (multiprocessing spawn, ProcessPoolExecutor, "
            "Spark, Celery) is not picklable: lambdas, local functions, locks, open "
            "connections; define functions at module level, pass plain data."
        ),
    ),
    Symptom(
        name="python-naive-aware-datetime",
        pattern=(
            r"(?-i:can't (compare|subtract) offset-naive and offset-aware datetimes"
            r"|received a naive datetime [^\n]{0,80}while time zone support is active)"
        ),
        explains=(
            "Naive and timezone-aware datetimes were mixed; use timezone-aware datetimes "
            "everywhere (datetime.now(timezone.utc), zoneinfo), store UTC, convert at the "
            "display boundary, never datetime.utcnow()."
        ),
    ),
    Symptom(
        name="python-abstract-class",
        pattern=(r"(?-i:Can't instantiate abstract class)"),
        explains=(
            "A subclass does not implement every abstract method of its ABC or Protocol base, "
            "often after a rename in the base; implement all abstract methods with matching "
            "signatures, check with mypy."
        ),
    ),
    Symptom(
        name="python-dataclass-definition",
        pattern=(
            r"(?-i:FrozenInstanceError"
            r"|mutable default [^\n]{0,60} for field"
            r"|non-default argument '?\w+'? follows default argument)"
        ),
        explains=(
            "A dataclass was misdefined or mutated: a mutable default (use "
            "field(default_factory=list)), a required field after a defaulted one, or "
            "assignment to a frozen instance (use dataclasses.replace)."
        ),
    ),
    Symptom(
        name="python-new-syntax-old-interpreter",
        pattern=(
            r"(?-i:'type' object is not subscriptable"
            r"|unsupported operand type\(s\) for \|: 'type'"
            r"|requires a different Python"
            r"|not compatible with the project's Python requirement"
            r"|Python requirement [^\n]{0,80} not satisfied)"
        ),
        explains=(
            "Code or a package needs a newer Python than the one running: list[int] or X | "
            "None annotations on old interpreters; pin requires-python, use from __future__ "
            "import annotations, test on every supported version."
        ),
    ),
    Symptom(
        name="python-subprocess-error",
        pattern=(
            r"(?-i:subprocess\.CalledProcessError"
            r"|returned non-zero exit status \d+)"
        ),
        explains=(
            "A child command failed and check=True raised; capture and log stderr, pass "
            "arguments as a list (no shell=True), check the tool is installed and on PATH, "
            "handle the failure explicitly."
        ),
    ),
    Symptom(
        name="python-resource-warning",
        pattern=(
            r"(?-i:ResourceWarning: unclosed"
            r"|Unclosed client session"
            r"|Unclosed connector"
            r"|PytestUnraisableExceptionWarning)"
        ),
        explains=(
            "Files, sockets, sessions or connections were not closed; use context managers "
            "(with, async with), close clients in teardown or lifespan handlers, reuse one "
            "session rather than one per call."
        ),
    ),
    Symptom(
        name="python-memory-error",
        pattern=(
            r"(?-i:MemoryError\b"
            r"|Unable to allocate[^\n]{0,40}for an array with shape"
            r"|_ArrayMemoryError)"
        ),
        explains=(
            "The process ran out of memory loading or materialising data at once; stream or "
            "chunk processing (chunksize, generators, iterators), use smaller dtypes, avoid "
            "copies, process lazily."
        ),
    ),
    Symptom(
        name="python-thread-shutdown",
        pattern=(
            r"(?-i:can't start new thread"
            r"|cannot schedule new futures after (interpreter )?shutdown"
            r"|can't register atexit after shutdown)"
        ),
        explains=(
            "Threads or executors were created unboundedly or used after shutdown; use a "
            "bounded ThreadPoolExecutor as a context manager, join workers, shut down cleanly "
            "in order."
        ),
    ),
    Symptom(
        name="python-ssl-verify",
        pattern=(
            r"(?-i:CERTIFICATE_VERIFY_FAILED"
            r"|SSLCertVerificationError"
            r"|certificate verify failed"
            r"|SSL: WRONG_VERSION_NUMBER)"
        ),
        explains=(
            "TLS verification failed: a corporate proxy or self-signed certificate, an "
            "outdated CA bundle (certifi), or HTTPS sent to an HTTP port; install the CA "
            "bundle, configure REQUESTS_CA_BUNDLE, never disable verify."
        ),
        environment=True,
    ),
    Symptom(
        name="python-connection-refused",
        pattern=(
            r"(?-i:ConnectionRefusedError"
            r"|\[Errno 111\] Connection refused"
            r"|Max retries exceeded with url"
            r"|Failed to establish a new connection"
            r"|httpx\.ConnectError)"
        ),
        explains=(
            "The target service is not running or listening on that host and port, or the URL "
            "points at localhost inside a container; start dependencies first, use health "
            "checks, configure hosts by env var, retry with backoff."
        ),
        environment=True,
    ),
    Symptom(
        name="python-dns-resolution",
        pattern=(
            r"(?-i:\[Errno -[23]\] (Name or service not known|Temporary failure in name resolution)"
            r"|nodename nor servname provided"
            r"|getaddrinfo failed)"
        ),
        explains=(
            "A hostname could not be resolved: no network, a typo in the host, or a service "
            "name only valid inside a container network; configure hosts through environment, "
            "check network and DNS."
        ),
        environment=True,
    ),
    Symptom(
        name="python-http-timeout",
        pattern=(
            r"(?-i:ReadTimeout"
            r"|ConnectTimeout"
            r"|ReadTimeoutError"
            r"|Read timed out"
            r"|httpx\.(Read|Connect|Pool)Timeout)"
        ),
        explains=(
            "A remote call took too long: slow or overloaded service, network trouble, or no "
            "timeout tuning; set explicit timeouts on every HTTP client call, retry "
            "idempotent requests with exponential backoff, add circuit breakers."
        ),
        environment=True,
    ),
    Symptom(
        name="python-http-status-error",
        pattern=(
            r"(?-i:requests\.exceptions\.HTTPError"
            r"|[45]\d\d (Client|Server) Error: "
            r"|httpx\.HTTPStatusError"
            r"|Client error '\d{3} [^'\n]{1,40}' for url)"
        ),
        explains=(
            "An HTTP call returned an error status raised by raise_for_status: wrong URL or "
            "method, missing authentication token, rate limiting, or a server fault; check "
            "status codes, handle 4xx and 5xx explicitly, retry only idempotent 5xx."
        ),
    ),
    Symptom(
        name="python-rate-limited",
        pattern=(
            r"(?-i:429 Too Many Requests"
            r"|Too Many Requests for url"
            r"|RateLimitError"
            r"|rate limit (exceeded|reached))"
        ),
        explains=(
            "An API rate limit or quota was exceeded; throttle requests, honour Retry-After, "
            "retry with exponential backoff and jitter, batch calls, cache responses."
        ),
    ),
    Symptom(
        name="python-address-in-use",
        pattern=(
            r"(?-i:\[Errno (98|48)\] (error while attempting to bind on address[^\n]{0,60})?[Aa]ddress already in use)"  # noqa: E501
        ),
        explains=(
            "Another process (often a previous dev server or test run) already listens on the "
            "port; stop it, pick a free or ephemeral port in tests, configure the port by "
            "environment, shut servers down in teardown."
        ),
        environment=True,
    ),
    Symptom(
        name="python-yaml-error",
        pattern=(
            r"(?-i:yaml\.(scanner|parser|constructor|composer)\.\w*Error"
            r"|mapping values are not allowed here"
            r"|could not find expected ':'"
            r"|found character '\\t' that cannot start any token"
            r"|could not determine a constructor for the tag)"
        ),
        explains=(
            "A YAML file is malformed (indentation, tabs, unquoted colons) or uses a Python "
            "tag; validate config files in CI, quote strings, use yaml.safe_load and a schema "
            "for configuration."
        ),
    ),
    Symptom(
        name="pip-resolution-impossible",
        pattern=(
            r"(?-i:ResolutionImpossible"
            r"|because these package versions have conflicting dependencies"
            r"|pip's dependency resolver does not currently take into account"
            r"|has requirement [^\n]{0,80}, but you have)"
        ),
        explains=(
            "Two dependencies require incompatible versions of a shared package; pin "
            "compatible versions with a lock file (uv lock, pip-tools, poetry.lock), upgrade "
            "together, use a fresh virtual environment per project."
        ),
    ),
    Symptom(
        name="pip-no-matching-distribution",
        pattern=(
            r"(?-i:No matching distribution found for"
            r"|Could not find a version that satisfies the requirement)"
        ),
        explains=(
            "The requested version does not exist for this Python version or platform, the "
            "name is misspelled, or the private index is not configured; check "
            "requires-python, pin existing versions, configure the index URL."
        ),
    ),
    Symptom(
        name="pip-build-wheel-failed",
        pattern=(
            r"(?-i:Failed building wheel for"
            r"|Could not build wheels for"
            r"|subprocess-exited-with-error"
            r"|legacy-install-failure"
            r"|Microsoft Visual C\+\+ [\d.]+ or greater is required"
            r"|Failed to build [\w-]+[ \t]*(?:\n|\Z)"
            r"|pg_config executable not found)"
        ),
        explains=(
            "A package with C extensions had no prebuilt wheel for this Python or platform, "
            "and compilers or system headers are missing; use a supported Python version, "
            "binary packages (psycopg-binary), pinned versions with wheels."
        ),
    ),
    Symptom(
        name="uv-no-solution",
        pattern=(
            r"(?-i:No solution found when resolving dependencies"
            r"|we can conclude that [^\n]{0,120}(unsatisfiable|cannot be used)"
            r"|your project'?s? requirements are unsatisfiable)"
        ),
        explains=(
            "uv could not find versions satisfying all constraints; relax or align version "
            "pins, check requires-python against packages, regenerate uv.lock, use dependency "
            "groups for conflicting extras."
        ),
    ),
    Symptom(
        name="lockfile-out-of-date",
        pattern=(
            r"(?-i:poetry\.lock (is not consistent|was last generated)"
            r"|pyproject\.toml changed significantly since poetry\.lock"
            r"|The lockfile at `uv\.lock` needs to be updated"
            r"|lock ?file [^\n]{0,40}(out of date|needs to be updated)"
            r"|SolverProblemError"
            r"|version solving failed)"
        ),
        explains=(
            "The lock file no longer matches the declared dependencies; regenerate it (poetry "
            "lock, uv lock) and commit it with the manifest, install with --locked or "
            "--frozen in CI for reproducible builds."
        ),
    ),
    Symptom(
        name="pip-hash-mismatch",
        pattern=(
            r"(?-i:THESE PACKAGES DO NOT MATCH THE HASHES"
            r"|Hashes are required in --require-hashes mode)"
        ),
        explains=(
            "Pinned hashes in requirements do not match the downloaded artifact, or a "
            "dependency is unpinned; regenerate the lock with pip-compile --generate-hashes, "
            "pin every transitive dependency."
        ),
    ),
    Symptom(
        name="python-packaging-build",
        pattern=(
            r"(?-i:Multiple top-level packages discovered in a flat-layout"
            r"|package directory '[^'\n]{1,80}' does not exist"
            r"|No module named '(distutils|setuptools|pkg_resources)'"
            r"|invalid pyproject\.toml config"
            r"|BackendUnavailable"
            r"|Cannot import 'setuptools\.build_meta')"
        ),
        explains=(
            "Package metadata or build configuration is wrong: flat layout with several "
            "packages, distutils removed in Python 3.12, missing build backend; use "
            "pyproject.toml with a declared build-system, a src layout and explicit package "
            "discovery."
        ),
    ),
    Symptom(
        name="python-numpy2-abi",
        pattern=(
            r"(?-i:compiled using NumPy 1\.x cannot be run in"
            r"|numpy\.dtype size changed, may indicate binary incompatibility"
            r"|_ARRAY_API not found"
            r"|module 'numpy' has no attribute '(float|int|bool|object|str|NaN|string_|float_)'"
            r"|`np\.\w+` was (removed|a deprecated alias))"
        ),
        explains=(
            "An extension was compiled against NumPy 1.x, or code uses aliases removed in "
            "NumPy 2 (np.float, np.NaN); pin numpy<2 or upgrade the dependent packages "
            "together, use builtin types and np.nan."
        ),
    ),
    Symptom(
        name="mypy-incompatible-types",
        pattern=(
            r"(?-i:Incompatible (types in assignment|return value type|default for argument)"
            r"|Argument \d+ to \"[^\"\n]{1,80}\" has incompatible type"
            r"|\[(arg-type|assignment|return-value|call-arg|override)\])"
        ),
        explains=(
            "A value's type does not match its annotation or the called signature; fix the "
            "annotation or convert the value, prefer precise types over Any, use TypedDict or "
            "dataclasses instead of raw dicts."
        ),
    ),
    Symptom(
        name="mypy-optional-access",
        pattern=(
            r"(?-i:Item \"None\" of \"[^\"\n]{1,80}\" has no attribute"
            r"|\[union-attr\]"
            r"|reportOptionalMemberAccess"
            r"|reportOptional(Subscript|Iterable|Call|Operand)"
            r"|is not a known attribute of \"None\")"
        ),
        explains=(
            "An Optional value is used without narrowing; check for None (if x is None: "
            "return), raise early, or make the value non-optional at construction; never "
            "silence with type: ignore."
        ),
    ),
    Symptom(
        name="mypy-missing-stubs",
        pattern=(
            r"(?-i:Library stubs not installed for"
            r"|missing library stubs or py\.typed marker"
            r"|\[import-untyped\]"
            r"|\[import-not-found\]"
            r"|Cannot find implementation or library stub"
            r"|Import \"[^\"\n]{1,80}\" could not be resolved)"
        ),
        explains=(
            "The type checker cannot find a module or its type stubs: package missing from "
            "the environment, types-* stub package not installed, or a wrong search path; "
            "install stubs as dev dependencies, configure per-module overrides."
        ),
    ),
    Symptom(
        name="mypy-untyped-code",
        pattern=(
            r"(?-i:Function is missing a (return )?type annotation"
            r"|\[no-untyped-(def|call)\]"
            r"|\[no-any-return\]"
            r"|Returning Any from function declared to return"
            r"|\[type-arg\]"
            r"|Missing type parameters for generic type)"
        ),
        explains=(
            "Strict type checking rejects unannotated functions, bare generics or Any leaking "
            "from untyped code; annotate every function signature, parameterise generics "
            "(list[str]), cast or validate data at boundaries."
        ),
    ),
    Symptom(
        name="pyright-errors",
        pattern=(
            r"(?-i:report(AttributeAccessIssue|ArgumentType|CallIssue|IndexIssue|ReturnType|AssignmentType|PossiblyUnbound|MissingImports)"
            r"|is possibly unbound"
            r"|Cannot access attribute \"\w+\" for class)"
        ),
        explains=(
            "Pyright found a type error: an attribute not declared on the class, arguments "
            "not matching the signature, or a variable possibly unbound on some path; "
            "annotate types, initialise variables on every branch, narrow unions."
        ),
    ),
    Symptom(
        name="asyncio-never-awaited",
        pattern=(
            r"(?-i:coroutine '[^'\n]{1,80}' was never awaited"
            r"|RuntimeWarning: coroutine"
            r"|object \w+ can't be used in 'await' expression"
            r"|'coroutine' object (is not subscriptable|has no attribute|is not iterable))"
        ),
        explains=(
            "An async function was called without await, or a sync object was awaited; await "
            "every coroutine, keep async all the way down, use asyncio.gather or a TaskGroup "
            "for concurrency, enable asyncio debug mode in tests."
        ),
    ),
    Symptom(
        name="asyncio-event-loop",
        pattern=(
            r"(?-i:This event loop is already running"
            r"|cannot be called from a running event loop"
            r"|There is no current event loop"
            r"|attached to a different loop"
            r"|Event loop is closed"
            r"|got Future [^\n]{0,80} attached to a different loop)"
        ),
        explains=(
            "Event loops were nested or mixed: asyncio.run inside a running loop (Jupyter, "
            "pytest-asyncio), objects created on one loop used on another, or a loop closed "
            "early; create async resources inside the running loop, one loop per test."
        ),
    ),
    Symptom(
        name="asyncio-task-lost",
        pattern=(
            r"(?-i:Task was destroyed but it is pending"
            r"|Task exception was never retrieved"
            r"|Future exception was never retrieved)"
        ),
        explains=(
            "Background tasks were created with create_task but not kept, awaited or "
            "cancelled, so errors vanish; keep references, use TaskGroup or gather, await or "
            "cancel tasks on shutdown, log exceptions."
        ),
    ),
    Symptom(
        name="asyncio-timeout-cancelled",
        pattern=(
            r"(?-i:asyncio\.(exceptions\.)?TimeoutError"
            r"|asyncio\.(exceptions\.)?CancelledError"
            r"|TimeoutError: Timeout context manager should be used inside a task)"
        ),
        explains=(
            "An awaited operation exceeded its timeout or was cancelled; set explicit "
            "timeouts (asyncio.timeout, wait_for), avoid blocking calls in the event loop "
            "(use to_thread), re-raise CancelledError, clean up in finally."
        ),
    ),
    Symptom(
        name="asyncio-blocking-call",
        pattern=(
            r"(?-i:Executing <[^\n]{0,80}> took [^\n]{0,20}seconds"
            r"|Blocking call to \w+"
            r"|SynchronousOnlyOperation"
            r"|You cannot call this from an async context)"
        ),
        explains=(
            "Blocking synchronous code (ORM queries, requests, time.sleep, file I/O) ran "
            "inside an async function and stalled the event loop; use async drivers, run sync "
            "code in asyncio.to_thread or sync_to_async."
        ),
    ),
    Symptom(
        name="pytest-fixture-not-found",
        pattern=(r"(?-i:fixture '[^'\n]{1,80}' not found)"),
        explains=(
            "A test requests a fixture that is not defined in scope: conftest.py not in a "
            "parent directory, a typo, or a pytest plugin not installed; share fixtures via "
            "conftest.py, declare test plugins as dev dependencies."
        ),
    ),
    Symptom(
        name="pytest-collection-error",
        pattern=(
            r"(?-i:ERROR collecting"
            r"|errors? during collection"
            r"|import file mismatch"
            r"|ImportPathMismatchError"
            r"|Plugin already registered)"
        ),
        explains=(
            "Tests fail to import: a missing dependency, a syntax error, duplicate test "
            "module basenames without __init__.py, or sys.path differences; use a src layout "
            "with the package installed, unique test file names, importmode=importlib."
        ),
    ),
    Symptom(
        name="pytest-async-support",
        pattern=(
            r"(?-i:async def functions are not natively supported"
            r"|PytestUnhandledCoroutineWarning"
            r"|coroutine '[^'\n]{1,60}' was never awaited[^\n]{0,40}test"
            r"|pytest-asyncio[^\n]{0,60}(strict|mode))"
        ),
        explains=(
            "Async tests ran without an async plugin or marker; install pytest-asyncio or "
            "anyio, mark tests with @pytest.mark.asyncio or set asyncio_mode = auto, use "
            "async fixtures with matching loop scope."
        ),
    ),
    Symptom(
        name="pytest-scope-mismatch",
        pattern=(
            r"(?-i:ScopeMismatch"
            r"|You tried to access the \w+ scoped fixture [^\n]{0,80} with a \w+ scoped request)"
        ),
        explains=(
            "A broader-scoped fixture depends on a narrower-scoped one (session using "
            "function); align fixture scopes, keep expensive session fixtures independent, "
            "use factory fixtures."
        ),
    ),
    Symptom(
        name="pytest-timeout",
        pattern=(
            r"(?-i:Failed: Timeout"
            r"|\+ Timeout \+"
            r"|pytest_timeout)"
        ),
        explains=(
            "A test hung or ran too long: a deadlock, a real network call, waiting on a "
            "never-set event, or a sleep; mock external services, use timeouts on waits, "
            "avoid sleeps, isolate tests from shared state."
        ),
    ),
    Symptom(
        name="pytest-django-db-access",
        pattern=(
            r"(?-i:Database access not allowed"
            r"|use the \"django_db\" mark)"
        ),
        explains=(
            "A test touches the database without the django_db marker or db fixture; mark "
            "database tests (@pytest.mark.django_db), keep unit tests free of database "
            "access, use factories within transactions."
        ),
    ),
    Symptom(
        name="python-mock-assertion",
        pattern=(
            r"(?-i:Expected '[^'\n]{1,80}' to (be called once|have been called)"
            r"|Expected call: "
            r"|Actual: not called"
            r"|expected call not found"
            r"|Expected '[^'\n]{1,80}' to not have been called"
            r"|Calls: \[call)"
        ),
        explains=(
            "A mock was not called as expected: the patch target is wrong (patch where the "
            "name is looked up, not where it is defined), arguments differ, or the code path "
            "changed; use autospec, patch the consumer's namespace."
        ),
    ),
    Symptom(
        name="python-http-mock-unmatched",
        pattern=(
            r"(?-i:Connection refused by Responses"
            r"|doesn't match any registered mock"
            r"|CannotOverwriteExistingCassetteException"
            r"|No response can be found for \w+ request"
            r"|The following responses are mocked but not requested"
            r"|Can't overwrite existing cassette)"
        ),
        explains=(
            "An HTTP call in a test did not match any registered mock or recorded cassette: "
            "URL, method or query differ, or a new request was added; register the exact "
            "request, record cassettes deliberately, never hit real networks in unit tests."
        ),
    ),
    Symptom(
        name="pytest-xdist-worker",
        pattern=(
            r"(?-i:\[gw\d+\] node down"
            r"|worker '?gw\d+'? crashed"
            r"|Different tests were collected between gw\d+ and gw\d+"
            r"|replacing crashed worker gw\d+)"
        ),
        explains=(
            "Parallel test workers crashed or collected different tests: non-deterministic "
            "parametrisation (sets, random), shared files, ports or databases between "
            "workers; make test ids deterministic and isolate resources per worker."
        ),
    ),
    Symptom(
        name="hypothesis-falsifying",
        pattern=(
            r"(?-i:Falsifying example:"
            r"|hypothesis\.errors\.\w+"
            r"|FailedHealthCheck"
            r"|Flaky: Hypothesis)"
        ),
        explains=(
            "Property-based testing found an input that breaks an invariant, often empty, "
            "unicode, NaN or boundary values; handle edge cases, keep the example with "
            "@example, make the code deterministic."
        ),
    ),
    Symptom(
        name="coverage-fail-under",
        pattern=(
            r"(?-i:Coverage failure: total of"
            r"|Required test coverage of [^\n]{0,20}not reached"
            r"|fail[_-]under)"
        ),
        explains=(
            "Test coverage fell below the configured threshold, usually new code without "
            "tests; add unit tests for new branches and error paths, keep coverage "
            "configuration (omit, fail_under) in pyproject.toml."
        ),
    ),
    Symptom(
        name="python-lint-unused",
        pattern=(
            r"(?-i:F401\b"
            r"|imported but unused"
            r"|F841\b"
            r"|assigned to but never used"
            r"|ARG00\d\b"
            r"|unused-(import|variable|argument))"
        ),
        explains=(
            "Linter flagged unused imports, variables or arguments: dead code left after a "
            "refactor; remove them, use _ for intentionally unused values, run ruff --fix in "
            "pre-commit."
        ),
    ),
    Symptom(
        name="python-lint-broad-except",
        pattern=(
            r"(?-i:E722\b"
            r"|Do not use bare `?except"
            r"|BLE001\b"
            r"|Do not catch blind exception"
            r"|S110\b"
            r"|try-except-pass"
            r"|broad-exception-caught"
            r"|bare-except)"
        ),
        explains=(
            "An except clause catches everything or swallows errors silently; catch specific "
            "exception types, log or re-raise with context, never except Exception: pass."
        ),
    ),
    Symptom(
        name="python-lint-mutable-default",
        pattern=(
            r"(?-i:B006\b"
            r"|mutable data structures for argument defaults"
            r"|dangerous-default-value"
            r"|RUF012\b"
            r"|Mutable class attributes should be annotated)"
        ),
        explains=(
            "A mutable default (list, dict) is shared across calls or instances; default to "
            "None and create inside, or use dataclasses field(default_factory=list)."
        ),
    ),
    Symptom(
        name="python-lint-undefined-name",
        pattern=(
            r"(?-i:F821\b"
            r"|Undefined name `"
            r"|undefined name '\w+'"
            r"|F811\b"
            r"|Redefinition of unused)"
        ),
        explains=(
            "The linter found a name used but never defined or imported, or redefined; import "
            "explicitly, avoid star imports, fix typos; such code fails at runtime with "
            "NameError."
        ),
    ),
    Symptom(
        name="python-format-check",
        pattern=(
            r"(?-i:would reformat"
            r"|Oh no! 💥 💔 💥"
            r"|I001\b"
            r"|Import block is un-sorted or un-formatted"
            r"|Imports are incorrectly sorted"
            r"|E501\b"
            r"|[Ll]ine too long \(\d+ > \d+)"
        ),
        explains=(
            "Code is not formatted or imports are not sorted as the configured formatter "
            "requires; run the formatter (ruff format, black, isort) locally or in a "
            "pre-commit hook before committing."
        ),
    ),
    Symptom(
        name="django-migrations-state",
        pattern=(
            r"(?-i:You have \d+ unapplied migration"
            r"|have changes that are not yet reflected in a migration"
            r"|Conflicting migrations detected"
            r"|InconsistentMigrationHistory"
            r"|django\.db\.migrations\.exceptions\.\w+"
            r"|Run 'manage\.py makemigrations')"
        ),
        explains=(
            "Models and migrations diverged: migrations not generated, not applied, or two "
            "branches added conflicting leaf migrations; run makemigrations and migrate, "
            "commit migrations with model changes, merge migrations, check makemigrations "
            "--check in CI."
        ),
    ),
    Symptom(
        name="django-improperly-configured",
        pattern=(
            r"(?-i:ImproperlyConfigured"
            r"|settings are not configured"
            r"|AppRegistryNotReady"
            r"|Apps aren't loaded yet"
            r"|Model class [\w.]+ doesn't declare an explicit app_label"
            r"|STATIC_ROOT setting)"
        ),
        explains=(
            "Django settings are incomplete or loaded too late: DJANGO_SETTINGS_MODULE not "
            "set, models imported before django.setup(), app missing from INSTALLED_APPS, "
            "missing environment variables; keep settings per environment, read secrets from "
            "env."
        ),
    ),
    Symptom(
        name="django-disallowed-host",
        pattern=(
            r"(?-i:DisallowedHost"
            r"|Invalid HTTP_HOST header"
            r"|You may need to add '[^'\n]{1,80}' to ALLOWED_HOSTS"
            r"|Origin checking failed - [^\n]{0,80} does not match any trusted origins"
            r"|CSRF_TRUSTED_ORIGINS)"
        ),
        explains=(
            "The request's host or origin is not allowed by settings; configure ALLOWED_HOSTS "
            "and CSRF_TRUSTED_ORIGINS per environment from env variables, behind a proxy set "
            "SECURE_PROXY_SSL_HEADER."
        ),
    ),
    Symptom(
        name="web-csrf-failure",
        pattern=(
            r"(?-i:CSRF verification failed"
            r"|CSRF token (missing|incorrect)"
            r"|CSRF cookie not set"
            r"|Forbidden \(CSRF"
            r"|The CSRF token is (missing|invalid)"
            r"|CSRFError)"
        ),
        explains=(
            "A form or AJAX POST lacked a valid CSRF token: template missing csrf_token, "
            "cookie not sent cross-site, or an API client using session auth; include the "
            "token in forms and headers, use token auth for APIs, configure SameSite."
        ),
    ),
    Symptom(
        name="django-object-lookup",
        pattern=(
            r"(?-i:matching query does not exist"
            r"|MultipleObjectsReturned"
            r"|RelatedObjectDoesNotExist"
            r"|get\(\) returned more than one)"
        ),
        explains=(
            "A get() lookup found no row or several rows; use get_object_or_404, "
            "filter().first(), handle DoesNotExist explicitly, add unique constraints where "
            "one row is expected, create test data with factories."
        ),
    ),
    Symptom(
        name="django-field-error",
        pattern=(
            r"(?-i:Cannot resolve keyword '[^'\n]{1,60}' into field"
            r"|FieldError"
            r"|FieldDoesNotExist"
            r"|Cannot assign \"[^\"\n]{0,80}\": \"[^\"\n]{0,80}\" must be a \""
            r"|Invalid field name\(s\) given in select_related)"
        ),
        explains=(
            "An ORM query or assignment uses a field or relation that does not exist or has "
            "the wrong type; check model field names and related_name, assign model instances "
            "(or _id values) to foreign keys, keep migrations in sync."
        ),
    ),
    Symptom(
        name="django-no-reverse-match",
        pattern=(
            r"(?-i:NoReverseMatch"
            r"|Reverse for '[^'\n]{1,80}' not found"
            r"|is not a registered namespace)"
        ),
        explains=(
            "A URL name or namespace used in reverse() or {% url %} is not registered or gets "
            "the wrong arguments; use app_name namespaces consistently, pass the required URL "
            "kwargs, test URL reversal."
        ),
    ),
    Symptom(
        name="django-template-error",
        pattern=(
            r"(?-i:TemplateDoesNotExist"
            r"|TemplateSyntaxError"
            r"|Invalid block tag"
            r"|is not a registered tag library)"
        ),
        explains=(
            "A template cannot be found or parsed: wrong TEMPLATES DIRS or app template path, "
            "missing {% load %}, or an unclosed tag; namespace templates under "
            "app_name/templates/app_name, load tag libraries explicitly."
        ),
    ),
    Symptom(
        name="django-system-check",
        pattern=(
            r"(?-i:SystemCheckError"
            r"|System check identified some issues"
            r"|(fields|models|admin|urls|auth)\.E\d{3}\b)"
        ),
        explains=(
            "Django's system checks found invalid model, admin or URL configuration such as "
            "clashing reverse accessors, missing related_name or on_delete; fix models and "
            "run manage.py check in CI."
        ),
    ),
    Symptom(
        name="drf-serializer-errors",
        pattern=(
            r"(?-i:rest_framework\.exceptions\.\w+"
            r"|AssertionError: [^\n]{0,80}`\.is_valid\(\)`"
            r"|Could not resolve URL for hyperlinked relationship"
            r"|This field is required\."
            r"|ImproperlyConfigured: Field name `\w+` is not valid for model)"
        ),
        explains=(
            "A Django REST Framework serializer rejected or misdescribed data: required "
            "fields missing, is_valid() not called, fields not matching the model; validate "
            "with is_valid(raise_exception=True), keep serializers in sync with models."
        ),
    ),
    Symptom(
        name="flask-app-context",
        pattern=(r"(?-i:Working outside of (application|request) context)"),
        explains=(
            "current_app, g, request or a Flask extension (Flask-SQLAlchemy db) was used "
            "outside an app or request context; use the application factory and "
            "app.app_context() in scripts and tests, pass data explicitly to background work."
        ),
    ),
    Symptom(
        name="flask-app-discovery",
        pattern=(
            r"(?-i:Could not locate a Flask application"
            r"|Failed to find Flask application"
            r"|Could not import \"[^\"\n]{1,80}\"\."
            r"|Error: While importing '[^'\n]{1,80}', an ImportError was raised)"
        ),
        explains=(
            "flask run could not import the app: FLASK_APP or --app not set, the factory name "
            "differs, or an import error inside the app; use an application factory "
            "(create_app), set --app explicitly, keep imports free of side effects."
        ),
    ),
    Symptom(
        name="jinja-template-error",
        pattern=(
            r"(?-i:jinja2\.exceptions\.\w+"
            r"|UndefinedError: '[^'\n]{1,80}' is undefined"
            r"|has no attribute '[^'\n]{1,60}'[^\n]{0,20}jinja"
            r"|TemplateNotFound)"
        ),
        explains=(
            "A Jinja template references an undefined variable or a missing template; pass "
            "every variable to render, use StrictUndefined in tests to catch typos, keep "
            "templates in the configured folder."
        ),
    ),
    Symptom(
        name="werkzeug-routing",
        pattern=(
            r"(?-i:werkzeug\.routing\.exceptions\.BuildError"
            r"|Could not build url for endpoint"
            r"|View function mapping is overwriting an existing endpoint function"
            r"|405 Method Not Allowed: The method is not allowed for the requested URL)"
        ),
        explains=(
            "url_for or a route is misconfigured: the endpoint name includes the blueprint, "
            "arguments are missing, two views share a name, or the route lacks the HTTP "
            "method; name endpoints uniquely and declare methods."
        ),
    ),
    Symptom(
        name="pydantic-validation-error",
        pattern=(
            r"(?-i:\d+ validation errors? for \w+"
            r"|Field required \[type=missing"
            r"|Input should be a valid \w+"
            r"|Extra inputs are not permitted"
            r"|value is not a valid \w+"
            r"|field required \(type=value_error\.missing\))"
        ),
        explains=(
            "Data did not match a Pydantic model: missing or misnamed fields, wrong types, "
            "extra keys, aliases not configured; validate input at the boundary, give "
            "optional fields defaults, keep schemas in sync with clients and tests."
        ),
    ),
    Symptom(
        name="pydantic-v2-migration",
        pattern=(
            r"(?-i:PydanticUserError"
            r"|PydanticDeprecatedSince2\d"
            r"|PydanticImportError"
            r"|has been moved to the `pydantic-settings` package"
            r"|`(dict|json|parse_obj|copy)` method is deprecated"
            r"|Support for class-based `config` is deprecated"
            r"|`__root__` models are no longer supported)"
        ),
        explains=(
            "Code written for Pydantic v1 runs on v2: BaseSettings moved to "
            "pydantic-settings, validator became field_validator, .dict() became "
            "model_dump(), Config became model_config; migrate APIs and pin the major "
            "version."
        ),
    ),
    Symptom(
        name="http-422-unprocessable",
        pattern=(
            r"(?-i:422 Unprocessable (Entity|Content)"
            r"|\"detail\":\s?\[\{\"(type|loc)\""
            r"|status_code == 422|assert 422 == 20\d)"
        ),
        explains=(
            "The request body, query or path parameters failed schema validation: missing "
            "field, wrong JSON shape, form sent instead of JSON, wrong content type; match "
            "the declared request model, send JSON with the right headers."
        ),
    ),
    Symptom(
        name="fastapi-app-definition",
        pattern=(
            r"(?-i:fastapi\.exceptions\.FastAPIError"
            r"|Invalid args for response field"
            r"|is not a valid Pydantic field type"
            r"|Form data requires \"python-multipart\" to be installed"
            r"|has no attribute 'openapi')"
        ),
        explains=(
            "A FastAPI route declaration is invalid: a non-Pydantic type used as "
            "response_model or parameter, a missing python-multipart dependency for forms; "
            "declare Pydantic models for bodies and responses, use Depends for services."
        ),
    ),
    Symptom(
        name="asgi-app-error",
        pattern=(
            r"(?-i:Error loading ASGI app"
            r"|Exception in ASGI application"
            r"|ASGI callable returned without (starting|completing) response"
            r"|Attribute \"\w+\" not found in module"
            r"|Could not import module \"[^\"\n]{1,60}\""
            r"|Caught handled exception, but response already started"
            r"|Response content longer than Content-Length)"
        ),
        explains=(
            "An ASGI server (uvicorn, hypercorn) could not import the app or the app crashed "
            "mid-response: wrong module:attribute path, exceptions in middleware or lifespan "
            "startup; use an app factory, handle errors in exception handlers."
        ),
    ),
    Symptom(
        name="gunicorn-worker-timeout",
        pattern=(
            r"(?-i:WORKER TIMEOUT"
            r"|Worker failed to boot"
            r"|was sent SIGKILL! Perhaps out of memory"
            r"|Worker \(pid:\s?\d+\) was sent SIG(KILL|TERM))"
        ),
        explains=(
            "A WSGI/ASGI worker blocked longer than the timeout or ran out of memory: slow "
            "synchronous I/O, long requests, heavy startup; move long work to background "
            "tasks, set timeouts on outbound calls, use async workers, tune worker counts."
        ),
    ),
    Symptom(
        name="sqlalchemy-detached-lazy-load",
        pattern=(
            r"(?-i:DetachedInstanceError"
            r"|is not bound to a Session"
            r"|lazy load operation of attribute '[^'\n]{1,60}' cannot proceed)"
        ),
        explains=(
            "A lazy-loaded relationship was accessed after the session closed or the object "
            "was detached (expire_on_commit); eager load with selectinload or joinedload, "
            "keep the session open for the unit of work, return DTOs."
        ),
    ),
    Symptom(
        name="sqlalchemy-missing-greenlet",
        pattern=(
            r"(?-i:MissingGreenlet"
            r"|greenlet_spawn has not been called"
            r"|can't call await_only\(\) here)"
        ),
        explains=(
            "With AsyncSession a relationship was lazy-loaded or an attribute expired "
            "implicitly, triggering sync IO; eager load (selectinload), set "
            'expire_on_commit=False, use lazy="raise", await session.refresh for attributes.'
        ),
    ),
    Symptom(
        name="sqlalchemy-pending-rollback",
        pattern=(
            r"(?-i:PendingRollbackError"
            r"|This Session's transaction has been rolled back due to a previous exception"
            r"|Can't reconnect until invalid transaction is rolled back)"
        ),
        explains=(
            "An earlier flush failed and the session was reused without rollback; scope one "
            "session per request or unit of work, use with session.begin() for transactions, "
            "rollback in exception handlers."
        ),
    ),
    Symptom(
        name="db-connection-pool-exhausted",
        pattern=(
            r"(?-i:QueuePool limit of size \d+ overflow \d+ reached"
            r"|connection timed out, timeout"
            r"|remaining connection slots are reserved"
            r"|sorry, too many clients already"
            r"|too many connections for role"
            r"|Too many connections"
            r"|ER_CON_COUNT_ERROR"
            r"|Timeout expired\.\s+The timeout period elapsed prior to obtaining a connection from the pool)"  # noqa: E501
        ),
        explains=(
            "Database connections leak or are not pooled: sessions never closed, a pool per "
            "request, too many workers; close sessions in finally or context managers, share "
            "one engine, size pools to the database max_connections, use PgBouncer."
        ),
    ),
    Symptom(
        name="sqlalchemy-mapping-config",
        pattern=(
            r"(?-i:could not assemble any primary key columns"
            r"|One or more mappers failed to initialize"
            r"|Could not determine join condition"
            r"|NoForeignKeysError"
            r"|AmbiguousForeignKeysError"
            r"|expression '\w+' failed to locate a name"
            r"|Table '[\w.]+' is already defined for this MetaData instance)"
        ),
        explains=(
            "ORM mappings are inconsistent: missing primary key, relationships without "
            "ForeignKey, ambiguous joins, a model imported twice or referenced before import; "
            "declare foreign_keys and back_populates explicitly, import all models before "
            "use."
        ),
    ),
    Symptom(
        name="sqlalchemy-2-api",
        pattern=(
            r"(?-i:RemovedIn20Warning"
            r"|should be explicitly declared as text"
            r"|ObjectNotExecutableError"
            r"|Not an executable object"
            r"|'Engine' object has no attribute 'execute'"
            r"|'Query' object has no attribute '\w+')"
        ),
        explains=(
            "Code written for the SQLAlchemy 1.x API runs on 2.0: raw SQL strings need "
            "text(), engine.execute was removed, use select() with session.execute and "
            "scalars(); migrate to 2.0 style and pin the version."
        ),
    ),
    Symptom(
        name="alembic-revision-error",
        pattern=(
            r"(?-i:Target database is not up to date"
            r"|Can't locate revision identified by"
            r"|Multiple head revisions are present"
            r"|alembic\.util\.exc\.CommandError"
            r"|overlaps with other requested revisions"
            r"|No such revision or branch)"
        ),
        explains=(
            "Alembic revision history and the database disagree: unapplied migrations, "
            "branches creating multiple heads, or a revision file deleted; run upgrade head, "
            "merge heads (alembic merge), commit migration files, never edit applied "
            "revisions."
        ),
    ),
    Symptom(
        name="celery-unregistered-task",
        pattern=(
            r"(?-i:Received unregistered task of type"
            r"|celery\.exceptions\.NotRegistered"
            r"|NotRegistered\(')"
        ),
        explains=(
            "The worker does not know the task name: the tasks module was not imported "
            "(autodiscover_tasks, include), the name changed, or workers run old code; use "
            "explicit task names, autodiscover, redeploy workers with producers."
        ),
    ),
    Symptom(
        name="celery-broker-connection",
        pattern=(
            r"(?-i:consumer: Cannot connect to (amqp|redis|sqs)"
            r"|kombu\.exceptions\.OperationalError"
            r"|Error \d+ connecting to [\w.-]+"
            r"|Cannot connect to amqp://)"
        ),
        explains=(
            "The Celery worker or producer cannot reach the broker (Redis, RabbitMQ): service "
            "down, wrong broker URL, container networking; start the broker, configure the "
            "URL by environment, use retries with backoff on startup."
        ),
        environment=True,
    ),
    Symptom(
        name="celery-task-time-limit",
        pattern=(
            r"(?-i:SoftTimeLimitExceeded"
            r"|TimeLimitExceeded"
            r"|WorkerLostError"
            r"|Worker exited prematurely"
            r"|MaxRetriesExceededError)"
        ),
        explains=(
            "A task ran too long, was killed, or exhausted retries: blocking I/O without "
            "timeouts, large batches, memory pressure; make tasks idempotent and small, set "
            "time limits and retry with backoff, use acks_late with idempotency."
        ),
    ),
    Symptom(
        name="pandas-setting-with-copy",
        pattern=(
            r"(?-i:SettingWithCopyWarning"
            r"|A value is trying to be set on a copy of a slice"
            r"|ChainedAssignmentError"
            r"|chained assignment)"
        ),
        explains=(
            "A filtered DataFrame slice was modified through chained indexing, so the write "
            "may not reach the original; use .loc[row, col] in one step, call .copy() on "
            "subsets you modify, enable copy-on-write."
        ),
    ),
    Symptom(
        name="pandas-missing-column",
        pattern=(
            r"(?-i:None of \[Index\("
            r"|\] not in index"
            r"|not found in axis"
            r"|KeyError: \"Column\(s\))"
        ),
        explains=(
            "A column or label is missing: wrong name, whitespace or case in CSV headers, or "
            "a column dropped upstream; normalise column names after loading, validate the "
            "schema (pandera), check df.columns before selecting."
        ),
    ),
    Symptom(
        name="pandas-dtype-mismatch",
        pattern=(
            r"(?-i:You are trying to merge on \w+ and \w+ columns"
            r"|Cannot convert non-finite values \(NA or inf\) to integer"
            r"|Cannot mask with non-boolean array containing NA"
            r"|Unable to parse string \"[^\"\n]{0,60}\" at position"
            r"|Cannot cast [^\n]{0,60} to dtype"
            r"|Invalid comparison between dtype=)"
        ),
        explains=(
            "Columns have unexpected dtypes: numbers read as strings, NaN in integer columns, "
            "mixed types in object columns; declare dtypes when reading (dtype=, "
            "parse_dates), use nullable dtypes (Int64), convert with to_numeric(errors=) "
            "explicitly."
        ),
    ),
    Symptom(
        name="ambiguous-truth-value",
        pattern=(
            r"(?-i:The truth value of an? (Series|DataFrame|array|Index) [^\n]{0,40}is ambiguous)"
        ),
        explains=(
            "A Series or array was used in a boolean context (if, and, or); use & and | with "
            "parentheses for element-wise logic, .any()/.all() to reduce, .empty to test "
            "emptiness."
        ),
    ),
    Symptom(
        name="pandas-api-removed",
        pattern=(
            r"(?-i:'(DataFrame|Series)' object has no attribute '(append|iteritems|ix|as_matrix|swapaxes|is_monotonic|mad)'"  # noqa: E501
            r"|FutureWarning: [^\n]{0,160}(deprecated|will be removed|will change))"
        ),
        explains=(
            "Code uses pandas APIs removed in 2.x (DataFrame.append, iteritems) or deprecated "
            "behaviour; use pd.concat, items(), explicit keyword arguments, pin the pandas "
            "version and treat FutureWarnings as errors in tests."
        ),
    ),
    Symptom(
        name="pandas-read-csv",
        pattern=(
            r"(?-i:Error tokenizing data"
            r"|No columns to parse from file"
            r"|EmptyDataError"
            r"|ParserError: )"
        ),
        explains=(
            "A CSV did not parse: wrong delimiter, quoting, inconsistent column counts, an "
            "empty file or a header mismatch; pass sep, quotechar, encoding and dtype "
            "explicitly, validate input files before loading."
        ),
    ),
    Symptom(
        name="pandas-timezone",
        pattern=(
            r"(?-i:Cannot compare tz-naive and tz-aware"
            r"|Cannot (join|subtract|combine) tz-naive and tz-aware"
            r"|Already tz-aware, use tz_convert"
            r"|Tz-aware datetime\.datetime cannot be converted to datetime64"
            r"|OutOfBoundsDatetime"
            r"|Out of bounds nanosecond timestamp"
            r"|Cannot localize tz-aware)"
        ),
        explains=(
            "Naive and timezone-aware timestamps were mixed, or dates fall outside datetime64 "
            "range; parse with utc=True, tz_localize once then tz_convert, store UTC, "
            "validate date ranges."
        ),
    ),
    Symptom(
        name="pandas-duplicate-index",
        pattern=(
            r"(?-i:cannot reindex (from|on an axis with) (a )?duplicate"
            r"|Reindexing only valid with uniquely valued Index"
            r"|Index has duplicates"
            r"|Duplicate column names found)"
        ),
        explains=(
            "Duplicate index labels or columns block reindex, assignment or pivot; "
            "deduplicate (drop_duplicates), reset_index, aggregate with pivot_table, validate "
            "key uniqueness after merges."
        ),
    ),
    Symptom(
        name="numpy-shape-mismatch",
        pattern=(
            r"(?-i:operands could not be broadcast together with shapes"
            r"|shapes \([^\n]{0,40}\) and \([^\n]{0,40}\) not aligned"
            r"|cannot reshape array of size"
            r"|setting an array element with a sequence"
            r"|inhomogeneous shape"
            r"|all the input array dimensions [^\n]{0,80}must match"
            r"|Length of values \(\d+\) does not match length of index)"
        ),
        explains=(
            "Array or column shapes do not match: transposed inputs, ragged lists, lost "
            "dimensions after indexing, or misaligned lengths; check .shape, reshape "
            "explicitly, keep axis conventions consistent, assert shapes in tests."
        ),
    ),
    Symptom(
        name="numpy-numeric-warning",
        pattern=(
            r"(?-i:invalid value encountered in"
            r"|divide by zero encountered in"
            r"|overflow encountered in"
            r"|UFuncTypeError"
            r"|ufunc '\w+' not supported for the input types"
            r"|Cannot cast ufunc)"
        ),
        explains=(
            "Numeric code produced NaN or inf or applied a ufunc to the wrong dtype: division "
            "by zero, log of negatives, object arrays, integer overflow; validate inputs, "
            "handle zeros and NaN explicitly, choose dtypes deliberately."
        ),
    ),
    Symptom(
        name="spark-analysis-exception",
        pattern=(
            r"(?-i:AnalysisException"
            r"|UNRESOLVED_COLUMN"
            r"|cannot resolve '[^'\n]{1,80}' given input columns"
            r"|TABLE_OR_VIEW_NOT_FOUND"
            r"|Table or view not found"
            r"|PATH_NOT_FOUND"
            r"|Path does not exist:)"
        ),
        explains=(
            "Spark could not resolve a column, table or path: a typo, case or schema drift, a "
            "column ambiguous after a join, or input missing; define explicit schemas, alias "
            "DataFrames before joins, validate inputs."
        ),
    ),
    Symptom(
        name="spark-memory-shuffle",
        pattern=(
            r"(?-i:java\.lang\.OutOfMemoryError: (Java heap space|GC overhead limit exceeded)"
            r"|Container killed by YARN for exceeding memory limits"
            r"|FetchFailedException"
            r"|ExecutorLostFailure"
            r"|spark\.driver\.maxResultSize"
            r"|Total size of serialized results)"
        ),
        explains=(
            "Executors or the driver ran out of memory: collect() or toPandas() on large "
            "data, skewed keys, too few partitions, broadcasting big tables; avoid collecting "
            "to the driver, repartition, salt skewed joins, tune memory."
        ),
    ),
    Symptom(
        name="spark-python-worker",
        pattern=(
            r"(?-i:PythonException"
            r"|Python worker (failed to connect back|exited unexpectedly)"
            r"|Python in worker has different version"
            r"|An exception was thrown from the Python worker)"
        ),
        explains=(
            "A Python UDF raised an error on executors (nulls, bad types) or driver and "
            "worker Pythons differ; prefer built-in functions to UDFs, handle None in UDFs, "
            "set PYSPARK_PYTHON consistently."
        ),
    ),
    Symptom(
        name="spark-java-gateway",
        pattern=(
            r"(?-i:Java gateway process exited before sending its port number"
            r"|JAVA_HOME is not set"
            r"|UnsupportedClassVersionError"
            r"|Unable to load native-hadoop library)"
        ),
        explains=(
            "PySpark cannot start a JVM: Java missing, JAVA_HOME unset, or an unsupported "
            "Java version for the Spark release; install a supported JDK, pin pyspark and "
            "Java versions together."
        ),
        environment=True,
    ),
    Symptom(
        name="spark-task-not-serializable",
        pattern=(
            r"(?-i:Task not serializable"
            r"|NotSerializableException"
            r"|Could not serialize object"
            r"|attempting to reference SparkContext from a broadcast variable)"
        ),
        explains=(
            "A closure shipped to executors captures something unserializable: the "
            "SparkContext, a DB connection, a client or self; create resources inside "
            "mapPartitions, use broadcast variables for read-only data, keep UDFs pure."
        ),
    ),
    Symptom(
        name="airflow-dag-import",
        pattern=(
            r"(?-i:Broken DAG"
            r"|DagBag import errors?"
            r"|AirflowDagCycleException"
            r"|Cycle detected in DAG"
            r"|DuplicateTaskIdFound"
            r"|Task id '[^'\n]{1,60}' has already been added)"
        ),
        explains=(
            "A DAG file failed to import or defines an invalid graph: import errors, "
            "top-level code, cycles, duplicate task ids; keep top-level DAG code light, test "
            "DAG integrity with DagBag in CI, pin provider packages."
        ),
    ),
    Symptom(
        name="airflow-task-failure",
        pattern=(
            r"(?-i:AirflowTaskTimeout"
            r"|Task received SIGTERM signal"
            r"|Detected zombie job"
            r"|AirflowSensorTimeout"
            r"|Marking task as (FAILED|UP_FOR_RETRY)"
            r"|Task exited with return code (Negsignal|-9))"
        ),
        explains=(
            "An Airflow task timed out, was killed or became a zombie: long-running work, "
            "memory limits, sensors poking forever; make tasks idempotent and atomic, set "
            "execution_timeout and retries, use deferrable sensors, keep XComs small."
        ),
    ),
    Symptom(
        name="airflow-connection-variable",
        pattern=(
            r"(?-i:The conn_id `[^`\n]{1,80}` isn't defined"
            r"|AirflowNotFoundException"
            r"|Variable \w+ does not exist"
            r"|KeyError: 'Variable \w+ does not exist')"
        ),
        explains=(
            "A task references an Airflow Connection or Variable not configured in this "
            "environment; define them through secrets backends or AIRFLOW_CONN_* environment "
            "variables, document required connections, use templated Variables at runtime."
        ),
        environment=True,
    ),
    Symptom(
        name="dbt-compilation-error",
        pattern=(
            r"(?-i:Compilation Error in (model|test|macro|snapshot|seed|analysis)"
            r"|depends on a node named '[^'\n]{1,80}' which (was not found|is disabled)"
            r"|dbt found two (models|resources|nodes)"
            r"|'[\w.]+' is undefined\. This can happen when calling a macro that does not exist)"
        ),
        explains=(
            "A dbt model references a model, source or macro that does not exist or is "
            "disabled, or names collide; use ref() and source() consistently, install "
            "packages with dbt deps, keep model names unique."
        ),
    ),
    Symptom(
        name="dbt-database-error",
        pattern=(
            r"(?-i:Database Error in (model|test|snapshot|seed)"
            r"|Runtime Error in (model|test|snapshot|seed))"
        ),
        explains=(
            "The SQL dbt generated failed in the warehouse: missing column or relation "
            "upstream, type mismatch, adapter dialect differences; run upstream models first, "
            "use adapter-agnostic macros, check compiled SQL in target/."
        ),
    ),
    Symptom(
        name="dbt-test-failure",
        pattern=(
            r"(?-i:Failure in test \w+"
            r"|Got \d+ results?, configured to (fail|warn) if)"
        ),
        explains=(
            "A dbt data test failed: duplicate keys (unique), nulls (not_null), orphan "
            "foreign keys (relationships) or unexpected values; fix the upstream model or "
            "join fan-out, deduplicate, document and test every model's grain."
        ),
    ),
    Symptom(
        name="dbt-profile-config",
        pattern=(
            r"(?-i:Could not find profile named"
            r"|Runtime Error\s+Could not run dbt"
            r"|profiles\.yml file [^\n]{0,40}(not found|invalid)"
            r"|Env var required but not provided)"
        ),
        explains=(
            "dbt cannot find its profile or required env_var: profiles.yml missing or target "
            "wrong; keep profiles in the project with env_var() for credentials, set "
            "DBT_PROFILES_DIR and target in CI."
        ),
        environment=True,
    ),
    Symptom(
        name="cuda-out-of-memory",
        pattern=(
            r"(?-i:CUDA out of memory"
            r"|OutOfMemoryError: CUDA"
            r"|CUBLAS_STATUS_ALLOC_FAILED"
            r"|ResourceExhaustedError"
            r"|OOM when allocating tensor"
            r"|MPS backend out of memory)"
        ),
        explains=(
            "The GPU ran out of memory: batch too large, activations kept for backward during "
            "evaluation, tensors accumulated across steps; reduce batch size, use gradient "
            "accumulation, mixed precision, torch.no_grad for inference, .item() for logged "
            "losses."
        ),
    ),
    Symptom(
        name="torch-device-mismatch",
        pattern=(
            r"(?-i:Expected all tensors to be on the same device"
            r"|Input type \([^\n]{0,60}\) and weight type \([^\n]{0,60}\) should be the same"
            r"|found at least two devices)"
        ),
        explains=(
            "Model and inputs live on different devices (cpu vs cuda); choose one device "
            "variable and move the model and every batch with .to(device), create new tensors "
            "with device=."
        ),
    ),
    Symptom(
        name="cuda-unavailable",
        pattern=(
            r"(?-i:Torch not compiled with CUDA enabled"
            r"|CUDA driver version is insufficient"
            r"|no CUDA-capable device is detected"
            r"|Found no NVIDIA driver"
            r"|no kernel image is available for execution"
            r"|libcudart\.so[\w.]* ?: cannot open shared object"
            r"|Could not load dynamic library 'lib(cudart|cudnn|cublas)"
            r"|NVIDIA-SMI has failed)"
        ),
        explains=(
            "The CUDA toolkit, driver or GPU does not match the installed framework build: "
            "CPU-only wheel, driver too old, no GPU in the container; install the wheel for "
            "the CUDA version, pin versions, fall back to CPU when unavailable."
        ),
        environment=True,
    ),
    Symptom(
        name="torch-shape-mismatch",
        pattern=(
            r"(?-i:mat1 and mat2 shapes cannot be multiplied"
            r"|size mismatch for [\w.]+: copying a param with shape"
            r"|The size of tensor a \(\d+\) must match the size of tensor b"
            r"|Given groups=\d+, weight of size"
            r"|Expected \d+D \(unbatched\) or \d+D \(batched\) input"
            r"|shape '\[[^\n]{0,40}\]' is invalid for input of size"
            r"|Expected input batch_size \(\d+\) to match target batch_size)"
        ),
        explains=(
            "Tensor shapes do not fit a layer: wrong in_features after flatten, missing batch "
            "dimension, channels-last input, or a checkpoint from another architecture; print "
            "shapes, assert them in tests, compute layer sizes from config."
        ),
    ),
    Symptom(
        name="torch-autograd-error",
        pattern=(
            r"(?-i:does not require grad and does not have a grad_fn"
            r"|Trying to backward through the graph a second time"
            r"|modified by an inplace operation"
            r"|Can't call numpy\(\) on Tensor that requires grad"
            r"|leaf Variable that requires grad is being used in an in-place operation)"
        ),
        explains=(
            "Autograd misuse: parameters frozen or the graph detached, backward called twice, "
            "in-place ops on needed tensors, numpy() on tracked tensors; call zero_grad and "
            "backward once per step, use .detach() for logging, avoid in-place ops."
        ),
    ),
    Symptom(
        name="torch-dtype-mismatch",
        pattern=(
            r"(?-i:expected scalar type \w+ but found \w+"
            r"|Expected object of scalar type"
            r"|result type \w+ can't be cast to the desired output type"
            "|\\\"\\w+\\\" not implemented for '(Half|BFloat16|Long|Int)'"
            r"|mat1 and mat2 must have the same dtype)"
        ),
        explains=(
            "Tensors have mismatched dtypes: float64 from numpy, Long targets where Float is "
            "expected, half precision on CPU; convert explicitly (.float(), .long()), build "
            "tensors with dtype=, use autocast for mixed precision."
        ),
    ),
    Symptom(
        name="cuda-device-assert",
        pattern=(
            r"(?-i:device-side assert triggered"
            r"|an illegal memory access was encountered"
            r"|CUDA_LAUNCH_BLOCKING"
            r"|CUDNN_STATUS_\w+"
            r"|Assertion `t >= 0 && t < n_classes` failed)"
        ),
        explains=(
            "A CUDA kernel failed, usually an index out of range: labels outside num_classes, "
            "token ids above the embedding size; validate labels and vocabulary sizes on CPU "
            "first, rerun with CUDA_LAUNCH_BLOCKING=1 to locate it."
        ),
    ),
    Symptom(
        name="torch-checkpoint-load",
        pattern=(
            r"(?-i:Error\(s\) in loading state_dict"
            r"|(Missing|Unexpected) key\(s\) in state_dict"
            r"|Weights only load failed"
            r"|WeightsUnpickler error"
            r"|PytorchStreamReader failed reading zip archive)"
        ),
        explains=(
            "A checkpoint does not match the model or the loader: prefix differences (module. "
            "from DataParallel), architecture changes, weights_only default in torch 2.6, a "
            "truncated file; save state_dict not modules, version checkpoints, load with "
            "map_location."
        ),
    ),
    Symptom(
        name="torch-dataloader-workers",
        pattern=(
            r"(?-i:DataLoader worker \(pid[^\n]{0,40}\) (is killed|exited unexpectedly)"
            r"|DataLoader worker exited unexpectedly"
            r"|An attempt has been made to start a new process before the\s+current process has finished its bootstrapping"  # noqa: E501
            r"|insufficient shared memory \(shm\)"
            r"|unable to write to file </torch_)"
        ),
        explains=(
            'DataLoader worker processes crashed: missing if __name__ == "__main__" guard '
            "with spawn, shared memory too small in Docker (--shm-size), unpicklable "
            "datasets, memory pressure; guard the entry point, reduce num_workers."
        ),
    ),
    Symptom(
        name="distributed-training",
        pattern=(
            r"(?-i:NCCL error"
            r"|ProcessGroupNCCL"
            r"|Watchdog caught collective operation timeout"
            r"|Default process group has not been initialized"
            r"|ncclUnhandledCudaError"
            r"|ncclSystemError)"
        ),
        explains=(
            "Distributed training ranks diverged or could not communicate: a rank skipped a "
            "collective, uneven data per rank, misconfigured MASTER_ADDR/PORT or network; "
            "keep collectives identical on all ranks, use DistributedSampler, "
            "init_process_group first."
        ),
    ),
    Symptom(
        name="tensorflow-shape-graph",
        pattern=(
            r"(?-i:is incompatible with the layer"
            r"|No gradients provided for any variable"
            r"|Shapes \([^\n]{0,40}\) and \([^\n]{0,40}\) are incompatible"
            r"|Graph execution error"
            r"|Incompatible shapes:"
            r"|logits and labels must have the same first dimension)"
        ),
        explains=(
            "A Keras/TensorFlow model got inputs or labels of the wrong shape or the loss is "
            "disconnected from weights: one-hot vs sparse labels, missing batch dimension, "
            "ops outside the tape; match loss to label encoding, check input_shape."
        ),
    ),
    Symptom(
        name="huggingface-model-load",
        pattern=(
            r"(?-i:We couldn't connect to 'https://huggingface\.co'"
            r"|Can't load (tokenizer|config|the model|model) for"
            r"|is not a local folder and is not a valid model identifier"
            r"|LocalEntryNotFoundError"
            r"|GatedRepoError"
            r"|OfflineModeIsEnabled)"
        ),
        explains=(
            "A model or tokenizer could not be loaded: offline without a cached copy, a wrong "
            "model id or path, a gated repo without a token; pin model revisions, cache "
            "weights ahead of time, load from a local path, set HF_HOME."
        ),
        environment=True,
    ),
    Symptom(
        name="jupyter-kernel-died",
        pattern=(
            r"(?-i:Kernel died"
            r"|The kernel appears to have died"
            r"|DeadKernelError"
            r"|No such kernel named"
            r"|Kernel didn't respond in"
            r"|Kernel restarting)"
        ),
        explains=(
            "The notebook kernel crashed or is not installed: out of memory, a native "
            "extension crash, or a kernelspec for a missing environment; register the venv "
            "with ipykernel, process data in chunks, restart and run all."
        ),
        environment=True,
    ),
    Symptom(
        name="jupyter-cell-execution",
        pattern=(
            r"(?-i:CellExecutionError"
            r"|An error occurred while executing the following cell"
            r"|PapermillExecutionError)"
        ),
        explains=(
            "Executing the notebook top to bottom failed, often hidden state from "
            "out-of-order execution during development; restart and run all before "
            "committing, move logic into tested modules, parametrise with papermill."
        ),
    ),
    Symptom(
        name="db-missing-table",
        pattern=(
            r"(?-i:relation \"?[\w.]+\"? does not exist"
            r"|UndefinedTable"
            r"|no such table:"
            r"|Table '[\w.]+' doesn't exist"
            r"|ER_NO_SUCH_TABLE"
            r"|SQLSTATE\[42(S02|P01)\]"
            r"|Invalid object name '"
            r"|Base table or view not found)"
        ),
        explains=(
            "The table does not exist in this database: migrations not applied, wrong "
            "database or schema (search_path), a test database created without migrations, or "
            "a misspelled table name; run migrations in setup and CI, keep schema in "
            "versioned migrations."
        ),
    ),
    Symptom(
        name="db-missing-column",
        pattern=(
            r"(?-i:column \"?[\w.]+\"? (of relation \"?\w+\"? )?does not exist"
            r"|UndefinedColumn"
            r"|no such column:"
            r"|Unknown column '[^'\n]{1,80}' in"
            r"|has no column named"
            r"|SQLSTATE\[42S22\]"
            r"|Invalid column name ')"
        ),
        explains=(
            "A query references a column the schema lacks: a model changed without a "
            "migration, migrations not applied, a typo, or quoting and case differences; "
            "generate and apply migrations with every model change, keep ORM models and "
            "schema in sync."
        ),
    ),
    Symptom(
        name="db-unique-violation",
        pattern=(
            r"(?-i:duplicate key value violates unique constraint"
            r"|UniqueViolation"
            r"|UNIQUE constraint failed"
            r"|Duplicate entry '[^'\n]{0,80}' for key"
            r"|ER_DUP_ENTRY"
            r"|E11000 duplicate key error"
            r"|Violation of (PRIMARY|UNIQUE) KEY constraint"
            r"|Cannot insert duplicate key row"
            r"|RecordNotUnique)"
        ),
        explains=(
            "An insert or update duplicates a unique key: retried non-idempotent writes, "
            "races between check and insert, test data reused across tests, sequences out of "
            "sync; use upserts (ON CONFLICT), idempotency keys, unique factory sequences, "
            "transactional tests."
        ),
    ),
    Symptom(
        name="db-foreign-key-violation",
        pattern=(
            r"(?-i:violates foreign key constraint"
            r"|ForeignKeyViolation"
            r"|FOREIGN KEY constraint failed"
            r"|a foreign key constraint fails"
            r"|ER_NO_REFERENCED_ROW"
            r"|conflicted with the (FOREIGN KEY|REFERENCE) constraint"
            r"|InvalidForeignKey)"
        ),
        explains=(
            "A row references a missing parent or a parent with children was deleted: insert "
            "order wrong, test fixtures incomplete, cascade rules absent; create parents "
            "first, define on_delete/cascade behaviour deliberately, wrap related writes in "
            "one transaction."
        ),
    ),
    Symptom(
        name="db-not-null-violation",
        pattern=(
            r"(?-i:violates not-null constraint"
            r"|NotNullViolation"
            r"|NOT NULL constraint failed"
            r"|Column '[^'\n]{1,80}' cannot be null"
            r"|Cannot insert the value NULL into column"
            r"|null value in column \"?\w+\"?)"
        ),
        explains=(
            "A required column got NULL: a field not set by the code, a new non-nullable "
            "column without default, or a nullable model field mismatched with the schema; "
            "set defaults, validate before saving, add columns nullable then backfill in "
            "migrations."
        ),
    ),
    Symptom(
        name="db-check-and-length",
        pattern=(
            r"(?-i:value too long for type"
            r"|Data too long for column"
            r"|ER_DATA_TOO_LONG"
            r"|String or binary data would be truncated"
            r"|violates check constraint"
            r"|CHECK constraint failed"
            r"|Out of range value for column"
            r"|integer out of range"
            r"|NumericValueOutOfRange)"
        ),
        explains=(
            "A value breaks a column's type or constraint: text longer than varchar length, a "
            "number beyond the integer range, a check constraint; validate input lengths and "
            "ranges before saving, use bigint ids, align model validation with schema "
            "constraints."
        ),
    ),
    Symptom(
        name="db-connection-refused",
        pattern=(
            r"(?-i:could not connect to server"
            r"|connection to server at [^\n]{0,80} failed"
            r"|Is the server running on"
            r"|Can't connect to (local )?MySQL server"
            r"|SQLSTATE\[HY000\] \[2002\]"
            r"|A network-related or instance-specific error occurred"
            r"|ECONNREFUSED[^\n]{0,20}(5432|3306|1433)"
            r"|could not translate host name)"
        ),
        explains=(
            "The database server is not running or not reachable: container not started or "
            "not yet ready, wrong host or port, localhost inside a container; start services "
            "before tests, wait with health checks, configure DATABASE_URL by environment."
        ),
        environment=True,
    ),
    Symptom(
        name="db-auth-failed",
        pattern=(
            r"(?-i:password authentication failed for user"
            r"|no pg_hba\.conf entry for host"
            r"|role \"[^\"\n]{1,60}\" does not exist"
            r"|Access denied for user '[^'\n]{1,60}'@"
            r"|Login failed for user"
            r"|ER_ACCESS_DENIED_ERROR"
            r"|database \"[^\"\n]{1,60}\" does not exist"
            r"|Unknown database '"
            r"|Authentication failed\.[^\n]{0,40}(mongo|Mongo)|MongoServerError: Authentication failed)"  # noqa: E501
        ),
        explains=(
            "The database rejected the credentials or the database is absent: wrong user, "
            "password or database name in the connection string, pg_hba rules, database not "
            "created; keep credentials in environment variables or a secrets manager, create "
            "databases in setup."
        ),
        environment=True,
    ),
    Symptom(
        name="db-permission-denied",
        pattern=(
            r"(?-i:permission denied for (table|relation|schema|sequence|database|function)"
            r"|InsufficientPrivilege"
            r"|must be owner of"
            r"|command denied to user"
            r"|ER_TABLEACCESS_DENIED_ERROR"
            r"|not authorized on \w+ to execute command)"
        ),
        explains=(
            "The database role lacks privileges on the object: tables created by another "
            "role, missing grants on sequences, least-privilege app users running migrations; "
            "grant privileges in migrations, run migrations as the owner role, set default "
            "privileges."
        ),
    ),
    Symptom(
        name="db-deadlock-lock-timeout",
        pattern=(
            r"(?-i:deadlock detected"
            r"|Deadlock found when trying to get lock"
            r"|Lock wait timeout exceeded"
            r"|could not obtain lock on"
            r"|canceling statement due to lock timeout"
            r"|LockNotAvailable"
            r"|could not serialize access due to"
            r"|SerializationFailure"
            r"|was deadlocked on lock resources)"
        ),
        explains=(
            "Concurrent transactions locked rows in different orders or held locks too long; "
            "keep transactions short, lock rows in a consistent order, use SELECT FOR UPDATE "
            "deliberately, retry serialization failures with backoff, avoid long migrations "
            "under load."
        ),
    ),
    Symptom(
        name="sqlite-database-locked",
        pattern=(
            r"(?-i:database is locked"
            r"|database table is locked"
            r"|SQLITE_BUSY"
            r"|SQLITE_LOCKED)"
        ),
        explains=(
            "Several connections or processes write to SQLite at once, or a transaction stays "
            "open; use WAL journal mode and busy_timeout, keep one writer, commit promptly, "
            "use a server database for concurrent writes."
        ),
    ),
    Symptom(
        name="sqlite-cannot-open",
        pattern=(
            r"(?-i:unable to open database file"
            r"|attempt to write a readonly database"
            r"|SQLITE_CANTOPEN"
            r"|SQLITE_READONLY)"
        ),
        explains=(
            "The SQLite file or its directory is missing or not writable: a relative path "
            "from another working directory, a read-only mount, wrong owner in a container; "
            "use absolute paths, create the directory, check permissions."
        ),
        environment=True,
    ),
    Symptom(
        name="sql-syntax-error",
        pattern=(
            r"(?-i:syntax error at or near"
            r"|You have an error in your SQL syntax"
            r"|near \"[^\"\n]{1,40}\": syntax error"
            r"|ER_PARSE_ERROR"
            r"|Incorrect syntax near"
            r"|syntax error at end of input)"
        ),
        explains=(
            "Hand-written or generated SQL does not parse: reserved words as identifiers, "
            "dialect differences (Postgres vs MySQL vs SQLite), string-built queries with bad "
            "quoting; use parameterized queries or a query builder, quote identifiers, test "
            "against the production database engine."
        ),
    ),
    Symptom(
        name="sql-type-mismatch",
        pattern=(
            r"(?-i:operator does not exist: \w+"
            r"|invalid input syntax for (type )?\w+"
            r"|is of type \w+ but expression is of type"
            r"|InvalidTextRepresentation"
            r"|DatatypeMismatch"
            r"|Incorrect (integer|datetime|decimal|date) value"
            r"|Conversion failed when converting)"
        ),
        explains=(
            "A parameter's type does not match the column: strings compared to integers or "
            "uuid, empty strings for numbers, dates in the wrong format; pass typed "
            "parameters, cast explicitly, validate and convert input before querying."
        ),
    ),
    Symptom(
        name="db-transaction-aborted",
        pattern=(
            r"(?-i:current transaction is aborted, commands ignored until end of transaction block"
            r"|InFailedSqlTransaction"
            r"|TransactionManagementError"
            r"|An error occurred in the current transaction\. You can't execute queries)"
        ),
        explains=(
            "A statement failed inside a transaction and later statements ran without "
            "rollback; find the first error, roll back or use savepoints (atomic blocks), do "
            "not catch database errors and continue in the same transaction."
        ),
    ),
    Symptom(
        name="db-statement-timeout",
        pattern=(
            r"(?-i:canceling statement due to statement timeout"
            r"|QueryCanceled"
            r"|Query execution was interrupted"
            r"|maximum statement execution time exceeded"
            r"|Execution Timeout Expired)"
        ),
        explains=(
            "A query ran longer than the timeout: missing index, full table scan, N+1 loops, "
            "or a lock wait; add indexes for filter and join columns, inspect with EXPLAIN "
            "ANALYZE, paginate, batch large updates."
        ),
    ),
    Symptom(
        name="db-migration-ddl",
        pattern=(
            r"(?-i:cannot drop (column|table|constraint) [^\n]{0,80}because other objects depend on it"  # noqa: E501
            r"|DependentObjectsStillExist"
            r"|column \"?\w+\"? (of relation \"?\w+\"? )?contains null values"
            r"|cannot ALTER TABLE [^\n]{0,80}because it has pending trigger events"
            r"|Base table or view already exists"
            r"|relation \"?\w+\"? already exists"
            r"|DuplicateTable"
            r"|table \w+ already exists"
            r"|Duplicate column name"
            r"|DuplicateColumn)"
        ),
        explains=(
            "A schema migration conflicts with the database state: re-running a "
            "non-idempotent migration, adding NOT NULL without default, dropping referenced "
            "objects; write reversible migrations, expand then backfill then contract, never "
            "edit applied migrations."
        ),
    ),
    Symptom(
        name="db-connection-dropped",
        pattern=(
            r"(?-i:MySQL server has gone away"
            r"|Lost connection to MySQL server"
            r"|server closed the connection unexpectedly"
            r"|SSL SYSCALL error: EOF detected"
            r"|terminating connection due to (administrator command|idle)"
            r"|connection already closed"
            r"|InterfaceError: connection already closed)"
        ),
        explains=(
            "A pooled connection went stale after idle timeouts, a database restart or a "
            "failover, or a connection was shared across forked processes; enable pre-ping "
            "and pool recycle, reconnect with retries, create connections after fork."
        ),
    ),
    Symptom(
        name="db-string-encoding",
        pattern=(
            r"(?-i:Incorrect string value: "
            r"|Illegal mix of collations"
            r"|invalid byte sequence for encoding"
            r"|character with byte sequence [^\n]{0,40} has no equivalent in encoding)"
        ),
        explains=(
            "Text does not fit the database or column encoding: MySQL utf8 (3-byte) instead "
            "of utf8mb4 for emoji, client encoding mismatch, latin1 data; use utf8mb4 and a "
            "consistent collation, set client encoding to UTF-8."
        ),
    ),
    Symptom(
        name="mongodb-connection",
        pattern=(
            r"(?-i:ServerSelectionTimeoutError"
            r"|Mongo(ose)?ServerSelectionError"
            r"|Server selection timed out"
            r"|MongoNetworkError"
            r"|connect ECONNREFUSED[^\n]{0,20}27017)"
        ),
        explains=(
            "The MongoDB client found no reachable server: mongod not running, wrong "
            "connection string, replica set name or TLS settings, or network access lists; "
            "configure MONGODB_URI by environment, start the service, set timeouts."
        ),
        environment=True,
    ),
    Symptom(
        name="mongodb-document-errors",
        pattern=(
            r"(?-i:Cast to ObjectId failed"
            r"|is not a valid ObjectId"
            r"|bson\.errors\.InvalidId"
            r"|Document failed validation"
            r"|ValidationError: \w+ validation failed"
            r"|buffering timed out after"
            r"|InvalidDocument: cannot encode object)"
        ),
        explains=(
            "A MongoDB document or query has the wrong shape: a string id where ObjectId is "
            "expected, schema validation failures, unencodable values, or queries before the "
            "connection opened; validate ids and input, define schemas, connect before "
            "querying."
        ),
    ),
    Symptom(
        name="redis-connection",
        pattern=(
            r"(?-i:redis\.exceptions\.ConnectionError"
            r"|Could not connect to Redis"
            r"|ECONNREFUSED[^\n]{0,20}6379"
            r"|Error \d+ connecting to [\w.-]+\. Connection refused"
            r"|LOADING Redis is loading the dataset in memory"
            r"|MISCONF Redis is configured to save RDB snapshots)"
        ),
        explains=(
            "Redis is unreachable or unhealthy: server not running, wrong REDIS_URL, "
            "container networking, or disk errors blocking snapshots; configure the URL by "
            "environment, start dependencies with health checks, reconnect with backoff."
        ),
        environment=True,
    ),
    Symptom(
        name="redis-data-errors",
        pattern=(
            r"(?-i:WRONGTYPE Operation against a key holding the wrong kind of value"
            r"|OOM command not allowed when used memory"
            r"|CROSSSLOT Keys in request don't hash to the same slot"
            r"|NOAUTH Authentication required"
            r"|WRONGPASS invalid username-password"
            r"|MOVED \d+ [\d.]+)"
        ),
        explains=(
            "Redis keys collide or memory fills: different features writing the same key with "
            "other types, keys without TTL, cluster multi-key operations across slots, "
            "missing auth; namespace keys with a prefix, set TTLs and an eviction policy, use "
            "hash tags."
        ),
    ),
    Symptom(
        name="elasticsearch-mapping",
        pattern=(
            r"(?-i:mapper_parsing_exception"
            r"|index_not_found_exception"
            r"|no such index"
            r"|illegal_argument_exception"
            r"|Fielddata is disabled on text fields"
            r"|strict_dynamic_mapping_exception"
            r"|search_phase_execution_exception"
            r"|Result window is too large)"
        ),
        explains=(
            "A document or query conflicts with the index mapping: wrong field types, dynamic "
            "mapping guessed differently, aggregating on text instead of keyword, missing "
            "index, deep pagination; define explicit mappings and index templates, use "
            "keyword fields, search_after."
        ),
    ),
    Symptom(
        name="elasticsearch-cluster",
        pattern=(
            r"(?-i:cluster_block_exception"
            r"|index read-only / allow delete"
            r"|flood[ -]stage disk watermark"
            r"|circuit_breaking_exception"
            r"|\[parent\] Data too large"
            r"|es_rejected_execution_exception"
            r"|no_shard_available_action_exception)"
        ),
        explains=(
            "The Elasticsearch cluster is protecting itself: disk above the flood-stage "
            "watermark made indices read-only, heap circuit breakers tripped, thread pools "
            "rejected bulk requests; free disk, size bulk batches, back off and retry."
        ),
        environment=True,
    ),
    Symptom(
        name="elasticsearch-version-conflict",
        pattern=(
            r"(?-i:version_conflict_engine_exception"
            r"|version conflict, (current version|required seqNo))"
        ),
        explains=(
            "Concurrent updates to the same document conflicted under optimistic concurrency; "
            "use if_seq_no/if_primary_term and retry_on_conflict, make updates idempotent, "
            "serialise writers per document."
        ),
    ),
    Symptom(
        name="php-undefined-class-function",
        pattern=(
            r"(?-i:Call to undefined (function|method)"
            r"|Class \"[^\"\n]{1,120}\" not found"
            r"|Class '[^'\n]{1,120}' not found"
            r"|Interface \"[^\"\n]{1,120}\" not found"
            r"|Trait \"[^\"\n]{1,120}\" not found)"
        ),
        explains=(
            "A class or function cannot be resolved: namespace or use statement wrong, file "
            "name not matching the PSR-4 class name, autoloader stale, or an extension "
            "missing; follow PSR-4, run composer dump-autoload, import classes with use."
        ),
    ),
    Symptom(
        name="php-null-access",
        pattern=(
            r"(?-i:Call to a member function \w+\(\) on null"
            r"|Attempt to read property \"[^\"\n]{1,60}\" on (null|bool|array)"
            r"|Trying to (get|access) (property|array offset) [^\n]{0,40}(of non-object|on value of type null))"  # noqa: E501
        ),
        explains=(
            "A method or property was used on null: a query returned no row, an optional "
            "relation was missing, or an uninitialised dependency; check for null, use the "
            "nullsafe operator ?->, findOrFail, strict types and static analysis."
        ),
    ),
    Symptom(
        name="php-type-error",
        pattern=(
            r"(?-i:must be of type [\w\\|?]+, [\w\\]+ given"
            r"|Argument #\d+ \(\$\w+\) must be of type"
            r"|Argument \d+ passed to [^\n]{0,120} must be (of the type|an instance of)"
            r"|Return value (of [^\n]{0,80})?must be of type"
            r"|Uncaught TypeError)"
        ),
        explains=(
            "A value of the wrong type reached a typed parameter or return: null where an "
            "object was expected, strings from requests, API changes; declare strict_types, "
            "validate input, use nullable types deliberately, run PHPStan or Psalm."
        ),
    ),
    Symptom(
        name="php-undefined-variable-index",
        pattern=(
            r"(?-i:Undefined (variable|array key|index|offset)"
            r"|Warning: Undefined"
            r"|Notice: Undefined)"
        ),
        explains=(
            "A variable or array key is read before being set: missing request fields, typos, "
            "conditional assignment; initialise variables, use isset, array_key_exists or the "
            "?? operator, validate request input."
        ),
    ),
    Symptom(
        name="php-memory-time-limit",
        pattern=(
            r"(?-i:Allowed memory size of[^\n]{0,30}bytes exhausted"
            r"|Maximum execution time of \d+ seconds? exceeded)"
        ),
        explains=(
            "A PHP script used too much memory or time: loading whole tables or files, "
            "infinite recursion, N+1 queries; process in chunks (chunk, cursor, lazy "
            "collections), stream files, move long work to queues rather than raising limits."
        ),
    ),
    Symptom(
        name="php-headers-already-sent",
        pattern=(
            r"(?-i:headers already sent"
            r"|Cannot modify header information)"
        ),
        explains=(
            "Output was sent before headers or a session started: whitespace or BOM before "
            "<?php, echo or debug output, a closing ?> tag with trailing newline; omit "
            "closing PHP tags, send headers before output, avoid echo in middleware."
        ),
    ),
    Symptom(
        name="php-cannot-redeclare",
        pattern=(
            r"(?-i:Cannot redeclare \w+"
            r"|Cannot declare class [^\n]{0,80}because the name is already in use)"
        ),
        explains=(
            "A function or class is defined twice: a file included more than once, or two "
            "plugins using the same global name; use require_once or autoloading, prefix or "
            "namespace functions, guard with function_exists."
        ),
    ),
    Symptom(
        name="composer-resolution",
        pattern=(
            r"(?-i:Your requirements could not be resolved to an installable set of packages"
            r"|The lock file is not up to date with the latest changes in composer\.json"
            r"|Your lock file does not contain a compatible set of packages"
            r"|requires php [^\n]{0,40}but your php version"
            r"|it is missing from your system\. Install or enable PHP's)"
        ),
        explains=(
            "Composer found no compatible versions: constraints conflict, the lock file is "
            "stale, or the PHP version or extensions differ from the lock; align version "
            "constraints, run composer update for the package, set config.platform.php, "
            "commit composer.lock."
        ),
    ),
    Symptom(
        name="composer-platform-check",
        pattern=(
            r"(?-i:Composer detected issues in your platform"
            r"|Your Composer dependencies require a PHP version)"
        ),
        explains=(
            "Installed dependencies need a newer PHP or extension than the runtime has; match "
            "the deployment PHP version to development, pin config.platform, install required "
            "extensions in the image."
        ),
        environment=True,
    ),
    Symptom(
        name="laravel-app-key",
        pattern=(
            r"(?-i:No application encryption key has been specified"
            r"|MissingAppKeyException"
            r"|The only supported ciphers are)"
        ),
        explains=(
            "APP_KEY is missing from the environment; copy .env.example to .env and run php "
            "artisan key:generate, provide APP_KEY as a secret in CI and deployment."
        ),
        environment=True,
    ),
    Symptom(
        name="laravel-mass-assignment",
        pattern=(
            r"(?-i:MassAssignmentException"
            r"|to fillable property to allow mass assignment)"
        ),
        explains=(
            "A model was created or updated with attributes not listed in $fillable (or "
            "guarded); declare $fillable explicitly, pass validated data "
            "($request->validated()), never unguard models globally."
        ),
    ),
    Symptom(
        name="laravel-not-found-routing",
        pattern=(
            r"(?-i:ModelNotFoundException"
            r"|No query results for model"
            r"|Route \[[^\]\n]{1,80}\] not defined"
            r"|RouteNotFoundException"
            r"|MethodNotAllowedHttpException"
            r"|The \w+ method is not supported for (this )?route)"
        ),
        explains=(
            "A route name, HTTP method or bound model is wrong: route not named, route cache "
            "stale, a record missing for findOrFail or route model binding; name routes, "
            "clear route cache after changes, create records with factories in tests."
        ),
    ),
    Symptom(
        name="laravel-csrf-session",
        pattern=(
            r"(?-i:CSRF token mismatch"
            r"|TokenMismatchException"
            r"|419 (Page Expired|unknown status)"
            r"|Page Expired"
            r"|but received 419)"
        ),
        explains=(
            "A POST lacked a valid CSRF token or the session expired: missing @csrf in forms, "
            "X-CSRF-TOKEN not sent by JavaScript, session or cookie domain misconfigured; "
            "include @csrf, send the header, configure SESSION_DOMAIN."
        ),
    ),
    Symptom(
        name="laravel-container-binding",
        pattern=(
            r"(?-i:Target class \[[^\]\n]{1,120}\] does not exist"
            r"|BindingResolutionException"
            r"|Target \[[^\]\n]{1,120}\] is not instantiable"
            r"|Unresolvable dependency resolving)"
        ),
        explains=(
            "The service container cannot build a class: a controller namespace wrong, an "
            "interface without a binding, a scalar constructor parameter; bind interfaces in "
            "a service provider, use dependency injection with type hints, clear config "
            "cache."
        ),
    ),
    Symptom(
        name="laravel-view-error",
        pattern=(
            r"(?-i:View \[[^\]\n]{1,80}\] not found"
            r"|Undefined variable \$\w+ \(View:)"
        ),
        explains=(
            "A Blade view is missing or receives fewer variables than it uses; check the "
            "dotted view path, pass all data with compact or view()->with, use components "
            "with declared props."
        ),
    ),
    Symptom(
        name="authorization-denied",
        pattern=(
            r"(?-i:This action is unauthorized"
            r"|AuthorizationException"
            r"|Symfony\\[^\n]{0,80}AccessDenied(Http)?Exception"
            r"|Pundit::NotAuthorizedError"
            r"|CanCan::AccessDenied"
            r"|not allowed to \w+\? this)"
        ),
        explains=(
            "An authorization policy, gate or voter denied the action: the policy is not "
            "registered, the user lacks a role, or tests act as the wrong user; define "
            "policies per model, authorize in controllers, act as a user with the right "
            "permissions in tests."
        ),
    ),
    Symptom(
        name="laravel-test-assertion",
        pattern=(
            r"(?-i:Expected response status code \[\d+\] but received \d+"
            r"|Failed asserting that a row in the table \[[^\]\n]{1,60}\] matches"
            r"|Failed asserting that the response contains"
            r"|Session is missing expected key \[errors\]"
            r"|Session has unexpected errors)"
        ),
        explains=(
            "A Laravel feature test got an unexpected response or database state: validation "
            "errors, redirects to login, middleware or CSRF, missing RefreshDatabase; "
            "authenticate with actingAs, send valid payloads, use factories and "
            "RefreshDatabase."
        ),
    ),
    Symptom(
        name="php-mockery",
        pattern=(
            r"(?-i:Mockery\\Exception\\\w+"
            r"|No matching handler found for Mockery"
            r"|should be called\s+(exactly|at least) \d+ times? but called \d+ times"
            r"|Method [^\n]{0,80} was not expected to be called)"
        ),
        explains=(
            "A mock received unexpected calls or arguments, or expectations were not met: the "
            "code path changed, the wrong instance was mocked, the container resolved a real "
            "object; bind mocks in the container, match arguments loosely, verify with "
            "Mockery::close."
        ),
    ),
    Symptom(
        name="php-static-analysis",
        pattern=(
            r"(?-i:Parameter #\d+ \$\w+ of (method|function|static method) [^\n]{0,120} expects [^\n]{0,80}, [^\n]{0,80} given"  # noqa: E501
            r"|should return [^\n]{0,60} but returns"
            r"|Access to an undefined property"
            r"|Cannot call method \w+\(\) on [^\n]{0,60}\|null"
            r"|PossiblyNullReference"
            r"|UndefinedMethod"
            r"|InvalidArgument - )"
        ),
        explains=(
            "PHPStan or Psalm found type errors: possibly null values, wrong argument types, "
            "undefined properties or methods on magic models; add precise type declarations "
            "and PHPDoc generics, handle null, use framework extensions (Larastan)."
        ),
    ),
    Symptom(
        name="symfony-dependency-injection",
        pattern=(
            r"(?-i:You have requested a non-existent service"
            r"|ServiceNotFoundException"
            r"|Cannot autowire service"
            r"|Cannot resolve argument \$\w+"
            r"|Circular reference detected for service"
            r"|Cannot autowire argument \$\w+)"
        ),
        explains=(
            "The Symfony container cannot build a service: the class is not registered or "
            "excluded from autowiring, an interface has several implementations, scalar "
            "arguments are unbound, or a circular dependency; bind arguments and aliases in "
            "services.yaml, clear the cache."
        ),
    ),
    Symptom(
        name="symfony-routing-twig",
        pattern=(
            r"(?-i:No route found for \"(GET|POST|PUT|PATCH|DELETE|HEAD)"
            r"|Twig\\Error\\(RuntimeError|SyntaxError|LoaderError)"
            r"|Variable \"[^\"\n]{1,60}\" does not exist"
            r"|Unable to find template \""
            r"|Unknown \"\w+\" (filter|function|tag))"
        ),
        explains=(
            "A route or template is missing or misused: route not loaded or wrong method, a "
            "Twig variable not passed, a template path wrong, an extension not installed; "
            "debug with debug:router, pass all variables, enable strict_variables in tests."
        ),
    ),
    Symptom(
        name="doctrine-orm",
        pattern=(
            r"(?-i:The EntityManager is closed"
            r"|A new entity was found through the relationship"
            r"|Doctrine\\ORM\\\w+Exception"
            r"|Doctrine\\DBAL\\Exception\\\w+"
            r"|Entity of type '[^'\n]{1,80}' for IDs [^\n]{0,40} was not found"
            r"|ORMInvalidArgumentException"
            r"|Proxies\\__CG__)"
        ),
        explains=(
            "Doctrine unit-of-work problems: the EntityManager closed after an exception, "
            "related entities not persisted (missing cascade persist), a lazy proxy to a "
            "deleted row; persist related entities, handle exceptions by resetting the "
            "manager, keep migrations in sync."
        ),
    ),
    Symptom(
        name="doctrine-migrations",
        pattern=(
            r"(?-i:DoctrineMigrationsBundle"
            r"|The database schema is not in sync with the current mapping file"
            r"|Migration \w+ failed during Execution"
            r"|No migrations to execute"
            r"|is not registered in the migration table)"
        ),
        explains=(
            "Doctrine mappings and the database schema diverged or a migration failed: entity "
            "changes without a diff, migrations edited after running; generate migrations "
            "with doctrine:migrations:diff, validate the schema in CI."
        ),
    ),
    Symptom(
        name="wordpress-critical-error",
        pattern=(
            r"(?-i:There has been a critical error on (this|your) website"
            r"|Error establishing a database connection"
            r"|WordPress database error"
            r"|PHP Fatal error:[^\n]{0,120}wp-(content|includes))"
        ),
        explains=(
            "A WordPress site crashed: a plugin or theme fatal error, incompatible PHP "
            "version, duplicate function names, or database credentials in wp-config.php; "
            "prefix functions, check function_exists, enable WP_DEBUG_LOG, test plugin "
            "updates on staging."
        ),
    ),
    Symptom(
        name="wordpress-nonce-capability",
        pattern=(
            r"(?-i:The link you followed has expired"
            r"|rest_cookie_invalid_nonce"
            r"|Cookie check failed"
            r"|rest_forbidden"
            r"|Sorry, you are not allowed to"
            r"|check_admin_referer)"
        ),
        explains=(
            "A WordPress request failed nonce or capability checks: missing wp_nonce_field or "
            "X-WP-Nonce header, expired nonce, a user without the capability; verify nonces, "
            "check current_user_can, sanitize input and escape output."
        ),
    ),
    Symptom(
        name="drupal-errors",
        pattern=(
            r"(?-i:PluginNotFoundException"
            r"|The \"[^\"\n]{1,80}\" plugin does not exist"
            r"|Mismatched entity and/or field definitions"
            r"|The website encountered an unexpected error"
            r"|Drupal\\Core\\[\w\\]+Exception"
            r"|drush[^\n]{0,40}(updatedb|cache:rebuild|cr)\b[^\n]{0,40}failed)"
        ),
        explains=(
            "Drupal configuration, plugins or entity schema are out of sync: a module not "
            "enabled, caches stale, update hooks not run, config not imported; run drush "
            "updb, cim and cr after deploys, export configuration to code."
        ),
    ),
    Symptom(
        name="ruby-nil-no-method",
        pattern=(
            r"(?-i:undefined method [`'][^'\n]{1,60}' for nil"
            r"|for nil:NilClass"
            r"|undefined method '[^'\n]{1,60}' for nil)"
        ),
        explains=(
            "A method was called on nil: a find_by returned nothing, an optional association "
            "was missing, a hash key absent; guard with presence checks or safe navigation "
            "(&.), use find or fetch to fail loudly, validate presence."
        ),
    ),
    Symptom(
        name="ruby-name-error",
        pattern=(
            r"(?-i:NameError: uninitialized constant"
            r"|uninitialized constant [\w:]+"
            r"|undefined local variable or method [`'][^'\n]{1,60}'"
            r"|Zeitwerk::NameError"
            r"|expected file [^\n]{0,160} to define constant)"
        ),
        explains=(
            "A constant or method is not found: file path and class name do not match "
            "Zeitwerk conventions, a missing require or gem, a typo, or code outside the "
            "autoload paths; follow naming conventions, configure autoload paths."
        ),
    ),
    Symptom(
        name="ruby-load-error",
        pattern=(
            r"(?-i:cannot load such file -- "
            r"|Gem::MissingSpecError"
            r"|Gem::LoadError"
            r"|You have already activated [^\n]{0,80}but your Gemfile requires"
            r"|Could not find gem '[^'\n]{1,60}')"
        ),
        explains=(
            "A library is not installed or the wrong version is activated: command run "
            "without bundle exec, gem missing from Gemfile, several versions installed; "
            "declare gems in the Gemfile, run bundle install, use bundle exec or binstubs."
        ),
    ),
    Symptom(
        name="bundler-resolution",
        pattern=(
            r"(?-i:Bundler could not find compatible versions for gem"
            r"|Bundler::GemNotFound"
            r"|Could not find [\w-]+-[\d.]+ in (any of the sources|locally installed gems)"
            r"|Your bundle is locked to [^\n]{0,80}but that version could not be found"
            r"|Bundler::VersionConflict"
            r"|Your Ruby version is [\d.]+, but your Gemfile specified)"
        ),
        explains=(
            "Bundler cannot satisfy the Gemfile: conflicting version constraints, a yanked "
            "gem, Gemfile.lock from another platform or Ruby version; pin Ruby with "
            ".ruby-version, commit Gemfile.lock, add platforms with bundle lock "
            "--add-platform."
        ),
    ),
    Symptom(
        name="bundler-native-extension",
        pattern=(
            r"(?-i:Gem::Ext::BuildError"
            r"|Failed to build gem native extension"
            r"|An error occurred while installing [\w-]+ \([\d.]+\), and Bundler cannot continue)"
        ),
        explains=(
            "A gem with a C extension failed to compile: system headers or libraries missing "
            "(libpq, libxml2, mysql client), compiler absent, or an old gem for a newer Ruby; "
            "install build dependencies in the image, use precompiled platform gems, update "
            "the gem."
        ),
        environment=True,
    ),
    Symptom(
        name="rails-pending-migration",
        pattern=(
            r"(?-i:ActiveRecord::PendingMigrationError"
            r"|Migrations are pending"
            r"|ActiveRecord::NoDatabaseError"
            r"|ActiveRecord::DuplicateMigrationNameError"
            r"|ActiveRecord::UnknownMigrationVersionError"
            r"|schema\.rb doesn't exist yet)"
        ),
        explains=(
            "The database schema lags behind migrations or does not exist: migrations not "
            "run, test database not prepared, schema.rb not committed; run bin/rails "
            "db:migrate and db:prepare, commit schema.rb with migrations, "
            "maintain_test_schema."
        ),
    ),
    Symptom(
        name="rails-irreversible-migration",
        pattern=(
            r"(?-i:ActiveRecord::IrreversibleMigration"
            r"|StandardError: An error has occurred, this and all later migrations canceled"
            r"|this and all later migrations canceled)"
        ),
        explains=(
            "A migration failed or cannot be rolled back: change used with non-reversible "
            "operations, data assumptions broke on real data; write reversible migrations "
            "with up and down, separate schema and data migrations, test rollback."
        ),
    ),
    Symptom(
        name="rails-record-not-found",
        pattern=(
            r"(?-i:ActiveRecord::RecordNotFound"
            r"|Couldn't find \w+ with '?id'?=)"
        ),
        explains=(
            "find raised because the record does not exist or is outside the current scope: "
            "stale ids, wrong tenant or user scope, test data missing; rescue to 404, use "
            "find_by when absence is expected, create records with factories."
        ),
    ),
    Symptom(
        name="rails-record-invalid",
        pattern=(
            r"(?-i:ActiveRecord::RecordInvalid"
            r"|Validation failed: "
            r"|ActiveModel::UnknownAttributeError"
            r"|ActiveRecord::RecordNotSaved)"
        ),
        explains=(
            "save! or create! failed model validations or callbacks: required attributes "
            "missing in factories, uniqueness collisions, a before_save returning false; "
            "build valid factories with sequences, check errors, validate in the model and "
            "the database."
        ),
    ),
    Symptom(
        name="rails-strong-parameters",
        pattern=(
            r"(?-i:ActionController::ParameterMissing"
            r"|param is missing or the value is empty"
            r"|ActiveModel::ForbiddenAttributesError"
            r"|Unpermitted parameters?:)"
        ),
        explains=(
            "Request params do not match strong parameters: the root key is missing (wrong "
            "form or JSON shape) or attributes are not permitted; require and permit expected "
            "keys explicitly, send nested params correctly, never permit!."
        ),
    ),
    Symptom(
        name="rails-routing-csrf",
        pattern=(
            r"(?-i:ActionController::RoutingError"
            r"|No route matches \[(GET|POST|PUT|PATCH|DELETE)\]"
            r"|ActionController::UrlGenerationError"
            r"|ActionController::InvalidAuthenticityToken"
            r"|Can't verify CSRF token authenticity"
            r"|undefined (local variable or )?method [`']\w+_(path|url)')"
        ),
        explains=(
            "A route is missing or a form lacks a valid authenticity token: routes.rb without "
            "the action, wrong HTTP verb, missing id for a member route, API requests with "
            "CSRF protection; check bin/rails routes, use protect_from_forgery with "
            "null_session for APIs."
        ),
    ),
    Symptom(
        name="rails-n-plus-one",
        pattern=(
            r"(?-i:USE eager loading detected"
            r"|AVOID eager loading detected"
            r"|Bullet::Notification"
            r"|N\+1 (queries|query) detected"
            r"|StrictLoadingViolationError"
            r"|is marked for strict_loading"
            r"|nplusone\.core\.exceptions\.NPlusOneError)"
        ),
        explains=(
            "Associations are loaded lazily inside a loop, causing an N+1 query pattern; "
            "eager load with includes, preload or eager_load (select_related and "
            "prefetch_related in Django), enable strict_loading in tests."
        ),
    ),
    Symptom(
        name="rails-credentials",
        pattern=(
            r"(?-i:ActiveSupport::MessageEncryptor::InvalidMessage"
            r"|Missing encryption key to decrypt"
            r"|ActiveSupport::EncryptedFile::MissingKeyError"
            r"|Missing `secret_key_base`"
            r"|Missing secret_key_base)"
        ),
        explains=(
            "Rails credentials cannot be decrypted: RAILS_MASTER_KEY or config/master.key "
            "absent or mismatched in this environment; provide the master key as a secret in "
            "CI and deployment, never commit it, edit credentials per environment."
        ),
        environment=True,
    ),
    Symptom(
        name="rspec-mocks",
        pattern=(
            r"(?-i:expected: \d+ times? with any arguments\s+received: \d+ times"
            r"|to have received :?\w+"
            r"|received :\w+ with unexpected arguments"
            r"|received unexpected message :\w+"
            r"|does not implement: \w+)"
        ),
        explains=(
            "An RSpec double or spy got unexpected calls: the stubbed method changed, the "
            "real object was used instead of the double, or arguments differ; use verifying "
            "doubles (instance_double), inject dependencies, match arguments with "
            "hash_including."
        ),
    ),
    Symptom(
        name="factorybot-errors",
        pattern=(
            r"(?-i:FactoryBot::\w+Error"
            r"|Factory not registered"
            r"|Trait not registered"
            r"|FactoryBot::DuplicateDefinitionError)"
        ),
        explains=(
            "A factory or trait is missing, duplicated or builds invalid records; define "
            "factories per model with sequences for unique fields, keep factories minimal and "
            "valid, lint factories in CI."
        ),
    ),
    Symptom(
        name="rubocop-offenses",
        pattern=(
            r"(?-i:(Style|Layout|Lint|Metrics|Naming|Rails|RSpec|Security|Performance|Bundler|Gemspec)/[A-Za-z]+:"
            r"|\d+ offenses? detected"
            r"|\d+ files? inspected, \d+ offenses?)"
        ),
        explains=(
            "RuboCop found style, lint or complexity offenses; follow the project "
            ".rubocop.yml, autocorrect with rubocop -a, split long methods and classes, run "
            "RuboCop in pre-commit and CI."
        ),
    ),
    Symptom(
        name="ruby-frozen-string",
        pattern=(
            r"(?-i:can't modify frozen \w+"
            r"|FrozenError)"
        ),
        explains=(
            "A frozen object was mutated: string literals frozen by the magic comment, "
            'constants, or shared config; build new objects (+"" or dup), avoid mutating '
            "arguments and constants."
        ),
    ),
    Symptom(
        name="rails-job-serialization",
        pattern=(
            r"(?-i:ActiveJob::SerializationError"
            r"|Unsupported argument type: \w+"
            r"|ActiveJob::DeserializationError"
            r"|Error while trying to deserialize arguments"
            r"|Sidekiq::Job::\w+Error"
            r"|Job arguments to \w+ must be native JSON types)"
        ),
        explains=(
            "Background job arguments are not serialisable or the referenced record was "
            "deleted before the job ran; pass ids or GlobalID-able records and simple JSON "
            "types, make jobs idempotent and tolerant of missing records."
        ),
    ),
    Symptom(
        name="r-package-missing",
        pattern=(
            r"(?-i:there is no package called"
            r"|package '[^'\n]{1,60}' is not available"
            r"|installation of package '[^'\n]{1,60}' had non-zero exit status"
            r"|package '[^'\n]{1,60}' was built under R version"
            r"|namespace '[^'\n]{1,60}' [\d.]+ is (already loaded|being loaded), but [^\n]{0,40}is required)"  # noqa: E501
        ),
        explains=(
            "An R package is not installed, unavailable for this R version, or needs system "
            "libraries; record dependencies with renv (renv.lock) or DESCRIPTION Imports, "
            "restore environments with renv::restore, pin the R version."
        ),
    ),
    Symptom(
        name="r-object-not-found",
        pattern=(
            r"(?-i:object '[^'\n]{1,60}' not found"
            r"|could not find function \")"
        ),
        explains=(
            "R cannot find a variable or function: a package not loaded, a column referenced "
            "outside its data frame, a typo, or tidy evaluation issues; load packages "
            "explicitly or use pkg::fun, use .data$col and {{ }} in functions."
        ),
    ),
    Symptom(
        name="r-value-errors",
        pattern=(
            r"(?-i:subscript out of bounds"
            r"|non-numeric argument to binary operator"
            r"|argument is of length zero"
            r"|missing value where TRUE/FALSE needed"
            r"|arguments imply differing number of rows"
            r"|replacement has \d+ rows?, data has"
            r"|object of type 'closure' is not subsettable"
            r"|\$ operator is invalid for atomic vectors)"
        ),
        explains=(
            "An R value has an unexpected type, length or NA: factors or characters treated "
            "as numbers, NA in conditions, empty vectors, functions confused with data; check "
            "inputs with stopifnot, handle NA explicitly (is.na, na.rm), convert types "
            "deliberately."
        ),
    ),
    Symptom(
        name="r-tidyverse-errors",
        pattern=(
            r"(?-i:Can't subset columns that don't exist"
            r"|Column `[^`\n]{1,60}` doesn't exist"
            r"|must be size \d+ or 1, not \d+"
            r"|Problem (while computing|with) `(mutate|summarise|filter)\(\)`"
            r"|In argument: `"
            r"|Can't combine `[^`\n]{0,40}` <\w+> and"
            r"|`summarise\(\)` has grouped output)"
        ),
        explains=(
            "A dplyr verb failed: a column renamed or missing, a vector with the wrong "
            "length, incompatible types when binding; check column names after reading data, "
            "use across() and explicit types, ungroup after grouped operations."
        ),
    ),
    Symptom(
        name="r-cmd-check",
        pattern=(
            r"(?-i:no visible binding for global variable"
            r"|Undocumented (arguments|code objects)"
            r"|Namespace dependenc(y|ies) not required"
            r"|Namespace dependency missing from DESCRIPTION"
            r"|checking [^\n]{0,60}(NOTE|WARNING|ERROR)[ \t]*(?:\n|\Z)"
            r"|R CMD check [^\n]{0,40}(failed|ERROR))"
        ),
        explains=(
            "R CMD check rejected the package: undeclared Imports, undocumented arguments, "
            "global variables from non-standard evaluation; declare dependencies in "
            "DESCRIPTION, document with roxygen2, use .data pronoun or "
            "utils::globalVariables."
        ),
    ),
    Symptom(
        name="dotnet-null-reference",
        pattern=(
            r"(?-i:System\.NullReferenceException"
            r"|Object reference not set to an instance of an object"
            r"|CS86(00|02|03|04|18|25)\b"
            r"|Dereference of a possibly null reference"
            r"|Non-nullable (property|field) '[^'\n]{1,60}' must contain a non-null value)"
        ),
        explains=(
            "A null reference was dereferenced: an uninitialised property, a missing lookup "
            "result, or an unchecked optional dependency; enable nullable reference types, "
            "treat nullable warnings as errors, guard with null checks, initialise in "
            "constructors."
        ),
    ),
    Symptom(
        name="dotnet-missing-type",
        pattern=(
            r"(?-i:CS0246\b"
            r"|The type or namespace name '[^'\n]{1,80}' could not be found"
            r"|CS0103\b"
            r"|The name '[^'\n]{1,60}' does not exist in the current context"
            r"|CS0234\b"
            r"|does not exist in the namespace)"
        ),
        explains=(
            "The compiler cannot find a type or name: a missing using directive, NuGet "
            "package or project reference, or a wrong target framework; add the package or "
            "ProjectReference, import namespaces, keep target frameworks aligned."
        ),
    ),
    Symptom(
        name="dotnet-type-conversion",
        pattern=(
            r"(?-i:CS0029\b"
            r"|Cannot implicitly convert type"
            r"|CS1503\b"
            r"|cannot convert from '"
            r"|CS0266\b"
            r"|CS1061\b"
            r"|does not contain a definition for '\w+'"
            r"|System\.InvalidCastException"
            r"|Unable to cast object of type)"
        ),
        explains=(
            "Types do not match: a Task not awaited, nullable vs non-nullable, interface vs "
            "implementation, or a member missing on the static type; await async results, "
            "convert explicitly, program to interfaces, use pattern matching instead of "
            "casts."
        ),
    ),
    Symptom(
        name="dotnet-async-misuse",
        pattern=(
            r"(?-i:CS4014\b"
            r"|Because this call is not awaited"
            r"|CS1998\b"
            r"|This async method lacks 'await' operators"
            r"|CS4032\b"
            r"|The 'await' operator can only be used within an async"
            r"|System\.Threading\.Tasks\.TaskCanceledException"
            r"|A task was canceled)"
        ),
        explains=(
            "Async code is misused: fire-and-forget calls not awaited, async methods without "
            "await, blocking with .Result or .Wait() causing deadlocks, cancellations from "
            "timeouts; use async all the way, pass CancellationToken, set HttpClient "
            "timeouts."
        ),
    ),
    Symptom(
        name="nuget-restore",
        pattern=(
            r"(?-i:NU1(101|102|103|107|202|605|608)\b"
            r"|Unable to find package [\w.]+"
            r"|Detected package downgrade"
            r"|Version conflict detected for"
            r"|is not compatible with net\d"
            r"|NETSDK1004\b"
            r"|Assets file [^\n]{0,120}not found)"
        ),
        explains=(
            "NuGet restore failed: a package or version missing from configured feeds, "
            "downgrades or version conflicts between projects, framework incompatibility; "
            "centralise versions (Directory.Packages.props), configure nuget.config feeds, "
            "run dotnet restore."
        ),
    ),
    Symptom(
        name="dotnet-sdk-version",
        pattern=(
            r"(?-i:NETSDK1045\b"
            r"|The current \.NET SDK does not support targeting"
            r"|A compatible \.NET SDK was not found"
            r"|Requested SDK version: [\d.]+"
            r"|You must install or update \.NET to run this application"
            r"|The framework 'Microsoft\.\w+Core\.App', version '[\d.]+' was not found)"
        ),
        explains=(
            "The installed .NET SDK or runtime does not match the project's target framework "
            "or global.json; install the required SDK, pin it in global.json, use matching "
            "SDK images in CI and Docker."
        ),
        environment=True,
    ),
    Symptom(
        name="efcore-migrations",
        pattern=(
            r"(?-i:has pending changes\. Add a new migration"
            r"|PendingModelChangesWarning"
            r"|Unable to create (an object of type|a 'DbContext')"
            r"|There is already an object named '[^'\n]{1,80}' in the database"
            r"|No migrations configuration type was found"
            r"|Your target project '[^'\n]{1,80}' doesn't match your migrations assembly"
            r"|No project was found\. Change the current working directory)"
        ),
        explains=(
            "EF Core migrations and the model diverged, or design-time tools cannot build the "
            "DbContext: model changed without Add-Migration, migrations applied out of band, "
            "no design-time factory or startup project; add migrations with each model "
            "change, provide IDesignTimeDbContextFactory."
        ),
    ),
    Symptom(
        name="efcore-tracking-concurrency",
        pattern=(
            r"(?-i:cannot be tracked because another instance with the (same )?key value"
            r"|A second operation was started on this context instance"
            r"|DbUpdateConcurrencyException"
            r"|expected to affect \d+ row\(s\), but actually affected \d+ row"
            r"|Cannot access a disposed context instance"
            r"|DbUpdateException: An error occurred while saving the entity changes)"
        ),
        explains=(
            "DbContext lifetime or tracking is misused: one context shared across threads or "
            "parallel awaits, entities attached twice, stale updates under optimistic "
            "concurrency; register DbContext scoped, await each query, use AsNoTracking for "
            "reads, handle concurrency tokens."
        ),
    ),
    Symptom(
        name="efcore-query-translation",
        pattern=(
            r"(?-i:could not be translated\. Either rewrite the query in a form that can be translated"  # noqa: E501
            r"|The LINQ expression [^\n]{0,160}could not be translated"
            r"|Include has been used on non entity queryable"
            r"|Lambda expression used inside Include is not valid)"
        ),
        explains=(
            "A LINQ query uses methods EF Core cannot translate to SQL (custom functions, "
            "client methods); rewrite with translatable operators, project with Select, "
            "switch to client evaluation explicitly with AsEnumerable only on small sets."
        ),
    ),
    Symptom(
        name="dotnet-linq-sequence",
        pattern=(
            r"(?-i:Sequence contains no (matching )?elements?"
            r"|Sequence contains more than one (matching )?element)"
        ),
        explains=(
            "First() or Single() found no element or several; use FirstOrDefault or "
            "SingleOrDefault with a null check when absence is possible, enforce uniqueness "
            "with constraints."
        ),
    ),
    Symptom(
        name="dotnet-dependency-injection",
        pattern=(
            r"(?-i:Unable to resolve service for type '[^'\n]{1,160}' while attempting to activate"
            r"|Cannot consume scoped service '[^'\n]{1,160}' from singleton"
            r"|Some services are not able to be constructed"
            r"|A circular dependency was detected for the service of type"
            r"|Cannot resolve scoped service '[^'\n]{1,160}' from root provider)"
        ),
        explains=(
            "The DI container cannot build a service: a dependency not registered, a scoped "
            "service captured by a singleton, or a circular dependency; register every "
            "service, choose lifetimes deliberately (scoped DbContext), use "
            "IServiceScopeFactory in singletons."
        ),
    ),
    Symptom(
        name="dotnet-configuration",
        pattern=(
            r"(?-i:The ConnectionString property has not been initialized"
            r"|OptionsValidationException"
            r"|Section '[^'\n]{1,60}' not found"
            r"|Format of the initialization string does not conform to specification"
            r"|No connection string named '[^'\n]{1,60}')"
        ),
        explains=(
            "Configuration values are missing or malformed in this environment: connection "
            "strings not set, appsettings for the environment absent, options not bound; use "
            "the options pattern with ValidateOnStart, user secrets locally, environment "
            "variables in deployment."
        ),
    ),
    Symptom(
        name="aspnet-authentication",
        pattern=(
            r"(?-i:No authenticationScheme was specified"
            r"|No authentication handler is registered for the scheme"
            r"|IDX10\d{3}\b"
            r"|Bearer error=\"invalid_token\""
            r"|SecurityTokenExpiredException"
            r"|SecurityTokenInvalid\w+Exception)"
        ),
        explains=(
            "JWT or cookie authentication is misconfigured or the token is invalid: issuer, "
            "audience or signing key mismatch, expired token, UseAuthentication missing or "
            "after UseAuthorization; configure TokenValidationParameters, order middleware "
            "correctly, refresh tokens."
        ),
    ),
    Symptom(
        name="dotnet-analyzers",
        pattern=(
            r"(?-i:error (CA|IDE)\d{4}\b"
            r"|warning (CA|IDE)\d{4}\b"
            r"|CS1591\b"
            r"|Missing XML comment for publicly visible type)"
        ),
        explains=(
            "Roslyn analyzers or code style rules failed the build with warnings as errors; "
            "follow .editorconfig rules, fix analyzer findings (dispose, ConfigureAwait, "
            "culture), format with dotnet format, suppress only with justification."
        ),
    ),
    Symptom(
        name="elixir-undefined-function",
        pattern=(
            r"(?-i:UndefinedFunctionError"
            r"|function [\w.]+/\d+ is undefined"
            r"|module [\w.]+ is not available"
            r"|undefined function \w+/\d+"
            r"|\(CompileError\))"
        ),
        explains=(
            "A module or function does not exist with that arity: a missing alias or import, "
            "a dependency not compiled, a private function called externally, a typo; alias "
            "modules explicitly, check arity, run mix deps.get and compile."
        ),
    ),
    Symptom(
        name="elixir-match-clause",
        pattern=(
            r"(?-i:MatchError"
            r"|no match of right hand side value"
            r"|FunctionClauseError"
            r"|no function clause matching"
            r"|CaseClauseError"
            r"|no case clause matching"
            r"|WithClauseError"
            r"|CondClauseError)"
        ),
        explains=(
            "A value did not match any pattern: an {:error, reason} tuple where {:ok, value} "
            "was assumed, nil, or an unexpected shape; match every result with case or with "
            "and else clauses, return tagged tuples consistently."
        ),
    ),
    Symptom(
        name="elixir-key-protocol",
        pattern=(
            r"(?-i:\(KeyError\) key :?\w+ not found"
            r"|Protocol\.UndefinedError"
            r"|protocol [\w.]+ not implemented for"
            r"|\(ArgumentError\) errors were found at the given arguments"
            r"|\(BadMapError\) expected a map)"
        ),
        explains=(
            "A map key is missing or a value does not implement a protocol (Jason.Encoder, "
            "Enumerable, String.Chars): structs not deriving encoders, nil passed on; use "
            "Map.get or fetch deliberately, @derive Jason.Encoder, validate with changesets."
        ),
    ),
    Symptom(
        name="ecto-association-not-loaded",
        pattern=(
            r"(?-i:Ecto\.Association\.NotLoaded"
            r"|association :?\w+ is not loaded)"
        ),
        explains=(
            "An Ecto association was accessed without preloading; preload associations "
            "explicitly (Repo.preload or query preload) in the context function, avoid N+1 "
            "queries by preloading in the query."
        ),
    ),
    Symptom(
        name="ecto-changeset-constraint",
        pattern=(
            r"(?-i:Ecto\.ConstraintError"
            r"|Ecto\.InvalidChangesetError"
            r"|Ecto\.ChangeError"
            r"|constraint error when attempting to insert struct"
            r"|If you would like to stop this constraint violation from raising an exception)"
        ),
        explains=(
            "A database constraint was violated and the changeset did not declare it, or an "
            "invalid changeset was inserted with a bang function; add unique_constraint or "
            "foreign_key_constraint to changesets, use insert and handle {:error, changeset}."
        ),
    ),
    Symptom(
        name="ecto-query-results",
        pattern=(
            r"(?-i:Ecto\.NoResultsError"
            r"|expected at least one result but got none"
            r"|Ecto\.MultipleResultsError"
            r"|Ecto\.Query\.CastError"
            r"|Ecto\.StaleEntryError)"
        ),
        explains=(
            "Repo.get!/one! found no row or several, a parameter failed to cast to the field "
            "type, or a stale entry was updated; use non-bang variants and handle nil, cast "
            "ids, use optimistic locking deliberately."
        ),
    ),
    Symptom(
        name="ecto-migration",
        pattern=(
            r"(?-i:Ecto\.MigrationError"
            r"|Postgrex\.Error\) ERROR \w+ \(undefined_table\)"
            r"|\(undefined_(table|column)\)"
            r"|Ecto\.Migration\.\w+"
            r"|mix ecto\.migrate)"
        ),
        explains=(
            "Ecto schema and database disagree: migrations not run for this environment "
            "(MIX_ENV=test), a migration failing, or a schema field without a column; run mix "
            "ecto.migrate and ecto.reset in test setup, keep migrations reversible."
        ),
    ),
    Symptom(
        name="elixir-process-exit",
        pattern=(
            r"(?-i:GenServer [\w.]+ terminating"
            r"|\(EXIT\) (time out|no process|shutdown|normal)"
            r"|exited in: GenServer\.call"
            r"|no process: the process is not alive"
            r"|\(EXIT from #PID)"
        ),
        explains=(
            "A GenServer call timed out or the process was dead: slow handle_call work, a "
            "crash loop under the supervisor, a name not registered; keep callbacks fast, "
            "move long work to tasks, set explicit timeouts, design supervision trees."
        ),
    ),
    Symptom(
        name="phoenix-routing-csrf",
        pattern=(
            r"(?-i:Phoenix\.Router\.NoRouteError"
            r"|Plug\.CSRFProtection\.InvalidCSRFTokenError"
            r"|invalid CSRF \(Cross Site Request Forgery\) token"
            r"|Phoenix\.ActionClauseError"
            r"|could not find a matching [\w.]+ clause to process request)"
        ),
        explains=(
            "A Phoenix request did not reach an action: route missing or wrong verb, CSRF "
            "token absent for browser pipelines, params not matching the action's pattern; "
            "check mix phx.routes, include the CSRF meta tag, pattern match params loosely."
        ),
    ),
    Symptom(
        name="mix-dependencies",
        pattern=(
            r"(?-i:Unchecked dependencies for environment"
            r"|Dependencies have diverged"
            r"|Could not compile dependency"
            r"|the dependency does not match the requirement"
            r"|Failed to use \"[^\"\n]{1,60}\"( \(version[^\n]{0,40}\))? because"
            r"|mix\.lock is out of date)"
        ),
        explains=(
            "Mix dependencies are missing, unfetched or conflict: mix.lock out of date, "
            "incompatible version requirements, native compilation failing; run mix deps.get, "
            "commit mix.lock, align requirements, install build tools."
        ),
    ),
    Symptom(
        name="elixir-compile-warnings",
        pattern=(
            r"(?-i:Compilation failed due to warnings while using the --warnings-as-errors option"
            r"|is unused \(if the variable is not meant to be used, prefix it with an underscore\)"
            r"|Credo\.Check\.\w+"
            r"|The pattern can never match"
            r"|has no local return)"
        ),
        explains=(
            "Compiler warnings, Credo or Dialyzer failed CI: unused variables, unreachable "
            "patterns, type specs that cannot succeed; prefix unused variables with _, keep "
            "typespecs accurate, run mix format, credo and dialyzer locally."
        ),
    ),
)
