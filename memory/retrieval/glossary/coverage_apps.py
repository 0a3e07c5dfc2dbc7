"""Failure glossary: application frameworks (Python web and data, Node/TypeScript, PHP, Rails,
Spring, .NET, Go web, mobile, serverless and hosted platforms, LLM and agent apps)."""

from __future__ import annotations

from fireworks_skill_memory.memory.retrieval.glossary.symptom import Symptom

SYMPTOMS: tuple[Symptom, ...] = (
    Symptom(
        name="django-staticfiles-manifest",
        pattern=(
            r"(?-i:Missing staticfiles manifest entry"
            r"|ManifestStaticFilesStorage"
            r"|The joined path [^\n]{0,80} is located outside of the base path)"
        ),
        explains=(
            "Static files were referenced before collectstatic ran, or a template names a file "
            "missing from STATICFILES_DIRS; run collectstatic in the build step, use the static "
            "tag, keep DEBUG off in tests of manifest storage."
        ),
    ),
    Symptom(
        name="django-app-label-settings",
        pattern=(
            r"(?-i:doesn't declare an explicit app_label"
            r"|Apps aren't loaded yet"
            r"|AppRegistryNotReady"
            r"|Model class [\w.]{1,80} doesn't declare)"
        ),
        explains=(
            "A model module was imported before django.setup() or its app is missing from "
            "INSTALLED_APPS; register apps in settings, set DJANGO_SETTINGS_MODULE, avoid "
            "importing models at module import time in scripts."
        ),
    ),
    Symptom(
        name="flask-secret-key-session",
        pattern=(
            r"(?-i:no secret key was set"
            r"|The session is unavailable because"
            r"|SECRET_KEY[^\n]{0,40}(must not be empty|not set))"
        ),
        explains=(
            "Sessions, flash messages or CSRF need a secret key that was never configured; load "
            "SECRET_KEY from an environment variable or secret store, never hard-code it, "
            "configure it in the app factory."
        ),
    ),
    Symptom(
        name="flask-endpoint-overwrite",
        pattern=(
            r"(?-i:View function mapping is overwriting an existing endpoint"
            r"|overwriting an existing endpoint function)"
        ),
        explains=(
            "Two routes share one endpoint name, usually a decorator wrapping views without "
            "functools.wraps or duplicate function names; use wraps in decorators, give each view "
            "a unique endpoint, organise routes in blueprints."
        ),
    ),
    Symptom(
        name="fastapi-websocket-disconnect",
        pattern=(
            r"(?-i:WebSocketDisconnect"
            r"|websockets\.exceptions\.ConnectionClosed"
            r"|ConnectionClosedError"
            r"|ConnectionClosedOK)"
        ),
        explains=(
            "The client closed the WebSocket while the server still sent or awaited messages; "
            "catch the disconnect, clean up connection managers, send heartbeats, and close "
            "sockets explicitly in tests."
        ),
    ),
    Symptom(
        name="python-multipart-missing",
        pattern=(
            r"(?-i:requires \"python-multipart\" to be installed"
            r"|Form data requires"
            r"|python-multipart)"
        ),
        explains=(
            "Form or file upload parameters need the optional python-multipart dependency; "
            "declare optional extras such as fastapi[standard] in project dependencies and pin "
            "them."
        ),
    ),
    Symptom(
        name="celery-result-backend",
        pattern=(
            r"(?-i:No result backend is configured"
            r"|DisabledBackend"
            r"|result backend [^\n]{0,40}not configured)"
        ),
        explains=(
            "AsyncResult.get or chords were used without a configured result_backend; configure a "
            "result backend, or design tasks as fire-and-forget and store results in the database "
            "idempotently."
        ),
    ),
    Symptom(
        name="celery-worker-lost",
        pattern=(
            r"(?-i:WorkerLostError"
            r"|Worker exited prematurely"
            r"|exited with 'signal 9)"
        ),
        explains=(
            "A pool worker was killed, usually by the out-of-memory killer or a hard time limit; "
            "lower concurrency, set worker_max_memory_per_child and max_tasks_per_child, process "
            "data in chunks, make tasks idempotent with acks_late."
        ),
    ),
    Symptom(
        name="sqlalchemy-database-url",
        pattern=(
            r"(?-i:Can't load plugin: sqlalchemy\.dialects"
            r"|Could not parse SQLAlchemy URL"
            r"|Could not parse rfc1738 URL"
            r"|NoSuchModuleError)"
        ),
        explains=(
            "The database URL is malformed or uses an old scheme such as postgres:// instead of "
            "postgresql://, or the driver package is not installed; read DATABASE_URL from "
            "configuration, normalise the scheme, pin the DB driver."
        ),
    ),
    Symptom(
        name="pandas-merge-errors",
        pattern=(
            r"(?-i:MergeError"
            r"|cause duplicate columns"
            r"|No common columns to perform merge on"
            r"|Merge keys are not unique)"
        ),
        explains=(
            "A merge has overlapping column names, no shared keys, or non-unique keys for "
            "validate; pass on and suffixes explicitly, deduplicate keys, use "
            "validate='one_to_one' and check key dtypes before joining."
        ),
    ),
    Symptom(
        name="pandas-fragmented-performance",
        pattern=(
            r"(?-i:PerformanceWarning: DataFrame is highly fragmented"
            r"|DataFrame is highly fragmented"
            r"|PerformanceWarning: indexing past lexsort depth)"
        ),
        explains=(
            "Columns were inserted one at a time in a loop or a MultiIndex is unsorted; build "
            "columns in a dict and pd.concat once, vectorise operations, sort_index before "
            "slicing a MultiIndex."
        ),
    ),
    Symptom(
        name="mypy-module-layout",
        pattern=(
            r"(?-i:Duplicate module named"
            r"|Source file found twice under different module names"
            r"|is not a valid Python package name)"
        ),
        explains=(
            "mypy sees the same module through two paths, usually scripts without __init__.py or "
            "mismatched mypy_path; use a src layout, explicit_package_bases, namespace packages "
            "and a single configured source root."
        ),
    ),
    Symptom(
        name="mypy-var-annotated",
        pattern=(
            r"(?-i:Need type annotation for"
            r"|\[var-annotated\]"
            r"|\[no-any-return\]"
            r"|Returning Any from function declared)"
        ),
        explains=(
            "An empty collection or an untyped library value lacks a precise type; annotate "
            "variables at creation, add return types, avoid Any by using typed stubs, TypedDict "
            "or cast at the boundary."
        ),
    ),
    Symptom(
        name="pytest-marker-config",
        pattern=(
            r"(?-i:PytestUnknownMarkWarning"
            r"|Unknown pytest\.mark\."
            r"|PytestConfigWarning"
            r"|unrecognized arguments: --"
            r"|'[\w-]{1,40}' not found in `markers` configuration)"
        ),
        explains=(
            "A custom marker or plugin option is used but not registered or the plugin is not "
            "installed; register markers in pyproject.toml, enable --strict-markers, declare "
            "pytest plugins as dev dependencies."
        ),
    ),
    Symptom(
        name="streamlit-errors",
        pattern=(
            r"(?-i:StreamlitAPIException"
            r"|StreamlitDuplicateElementId"
            r"|DuplicateWidgetID"
            r"|StreamlitDuplicateElementKey"
            r"|st\.session_state has no (key|attribute))"
        ),
        explains=(
            "Streamlit reruns the script top to bottom: duplicate widget keys, set_page_config "
            "not first, or session_state read before initialisation; give widgets unique keys, "
            "initialise session state, cache expensive calls."
        ),
    ),
    Symptom(
        name="express-route-handler-undefined",
        pattern=(
            r"(?-i:requires a callback function but got a"
            r"|Route\.\w+\(\) requires a callback"
            r"|app\.use\(\) requires a middleware function"
            r"|Router\.use\(\) requires a middleware function)"
        ),
        explains=(
            "A route or middleware was registered with undefined, usually a wrong import or "
            "export (default versus named) or a circular import; export handlers explicitly, type "
            "routers, check imports."
        ),
    ),
    Symptom(
        name="express-body-parsing",
        pattern=(
            r"(?-i:PayloadTooLargeError"
            r"|request entity too large"
            r"|entity\.parse\.failed"
            r"|body-parser"
            r"|BadRequestError: request aborted)"
        ),
        explains=(
            "The request body exceeded the body-parser limit or was malformed JSON; set an "
            "explicit size limit, validate input schema, send Content-Type application/json, "
            "stream large uploads instead of buffering."
        ),
    ),
    Symptom(
        name="express-cannot-get-route",
        pattern=(r"(?-i:Cannot (GET|POST|PUT|PATCH|DELETE) /)"),
        explains=(
            "No Express route matched the method and path: wrong mount prefix, router not "
            "registered, method mismatch or middleware order; register routers before the 404 "
            "handler, keep route prefixes consistent, test routes."
        ),
    ),
    Symptom(
        name="nestjs-dependency-resolution",
        pattern=(
            r"(?-i:Nest can't resolve dependencies"
            r"|Nest cannot export a provider"
            r"|Nest could not find [\w\"']{1,80} element"
            r"|is available in the [\w]{1,60} context"
            r"|UnknownDependenciesException)"
        ),
        explains=(
            "A NestJS provider is injected in a module that neither provides nor imports it, or a "
            "circular import yields undefined; export providers from their module, import that "
            "module, use forwardRef for real cycles."
        ),
    ),
    Symptom(
        name="nestjs-validation-pipe",
        pattern=(
            r"(?-i:property \w+ should not exist"
            r"|ValidationPipe"
            r"|class-validator"
            r"|BadRequestException: [^\n]{0,80}must be)"
        ),
        explains=(
            "A DTO validation failed: extra fields with forbidNonWhitelisted, missing "
            "class-validator decorators or unconverted types; annotate DTOs, enable transform, "
            "validate input at the boundary and keep client payloads in sync."
        ),
    ),
    Symptom(
        name="next-async-request-apis",
        pattern=(
            r"(?-i:should be awaited before using its properties"
            r"|does not satisfy the constraint 'PageProps'"
            r"|Type error: Page \"[^\n]{0,80}\" has an invalid"
            r"|sync-dynamic-apis)"
        ),
        explains=(
            "Next.js 15 made params, searchParams, cookies and headers asynchronous; await them "
            "in pages and route handlers, type props as Promise, run the official codemod when "
            "upgrading major versions."
        ),
    ),
    Symptom(
        name="next-redirect-caught",
        pattern=(
            r"(?-i:NEXT_REDIRECT"
            r"|NEXT_NOT_FOUND"
            r"|NEXT_HTTP_ERROR_FALLBACK)"
        ),
        explains=(
            "redirect() or notFound() throws a control-flow error that a try/catch swallowed or "
            "logged; call redirect outside try blocks, rethrow framework errors, keep server "
            "actions free of blanket catch."
        ),
    ),
    Symptom(
        name="cypress-app-uncaught-exception",
        pattern=(
            r"(?-i:originated from your application code, not from Cypress"
            r"|uncaught:exception"
            r"|detached from the DOM"
            r"|cy\.\w+\(\) failed because (the page updated|this element is detached))"
        ),
        explains=(
            "The app threw during an end-to-end test or re-rendered an element between query and "
            "action; fix the application error, wait on network aliases not fixed delays, "
            "re-query elements instead of storing them."
        ),
    ),
    Symptom(
        name="playwright-strict-and-closed",
        pattern=(
            r"(?-i:strict mode violation"
            r"|Target page, context or browser has been closed"
            r"|Target closed"
            r"|browser has been closed)"
        ),
        explains=(
            "A locator matched several elements, or the test used a page after it closed, often a "
            "missing await or a leaked promise; use unique role-based locators, await every "
            "action, enable no-floating-promises."
        ),
    ),
    Symptom(
        name="js-test-no-tests-or-globals",
        pattern=(
            r"(?-i:No tests found, exiting with code"
            r"|No test suite found in file"
            r"|passWithNoTests"
            r"|describe is not defined"
            r"|vi is not defined"
            r"|expect is not defined)"
        ),
        explains=(
            "The test runner found no tests or globals are not enabled: wrong testMatch/include "
            "globs, mixing Jest and Vitest APIs, or globals off; configure include patterns, "
            "import describe/it/expect explicitly or set globals."
        ),
    ),
    Symptom(
        name="mongoose-overwrite-model",
        pattern=(
            r"(?-i:OverwriteModelError"
            r"|Cannot overwrite `\w+` model once compiled)"
        ),
        explains=(
            "A Mongoose model is compiled twice, typically on hot reload or repeated imports in "
            "serverless; reuse mongoose.models.Name when it exists, define models in one module "
            "and cache the connection."
        ),
    ),
    Symptom(
        name="graphql-apollo-client",
        pattern=(
            r"(?-i:ApolloError"
            r"|Response not successful: Received status code"
            r"|Unknown argument \""
            r"|Variable \"\$\w+\" of required type"
            r"|Variable \"\$\w+\" got invalid value)"
        ),
        explains=(
            "A GraphQL operation does not match the server schema: wrong variables, stale "
            "generated types or a server error; regenerate types from the schema with codegen, "
            "validate operations in CI, handle errors per field."
        ),
    ),
    Symptom(
        name="laravel-queue-job-failed",
        pattern=(
            r"(?-i:MaxAttemptsExceededException"
            r"|has been attempted too many times"
            r"|TimeoutExceededException"
            r"|ManuallyFailedException"
            r"|failed_jobs)"
        ),
        explains=(
            "A queued job kept failing or ran past its timeout, and the retry_after is shorter "
            "than the job timeout; make jobs idempotent, set tries, backoff and timeout below "
            "retry_after, chunk long work, inspect failed_jobs."
        ),
    ),
    Symptom(
        name="laravel-eloquent-strict-mode",
        pattern=(
            r"(?-i:LazyLoadingViolationException"
            r"|MissingAttributeException"
            r"|Attempted to lazy load"
            r"|either does not exist or was not retrieved for model)"
        ),
        explains=(
            "Eloquent strict mode caught lazy loading (an N+1 query) or a column missing from a "
            "select; eager load relationships with with(), select the attributes used, keep "
            "preventLazyLoading on outside production."
        ),
    ),
    Symptom(
        name="laravel-route-cache",
        pattern=(
            r"(?-i:Unable to prepare route \["
            r"|has already been assigned name \["
            r"|Closure[^\n]{0,40}could not be serialized)"
        ),
        explains=(
            "route:cache needs unique route names and controller actions instead of closures; "
            "name each route once, use controller classes, run route:cache in CI to catch "
            "duplicates."
        ),
    ),
    Symptom(
        name="laravel-vite-manifest",
        pattern=(
            r"(?-i:Vite manifest not found"
            r"|ViteManifestNotFoundException"
            r"|Unable to locate file in Vite manifest"
            r"|ViteException)"
        ),
        explains=(
            "The frontend assets were not built or the entry is not listed in vite.config input; "
            "run npm run build in deployment, include every @vite entry, keep the public/build "
            "directory out of version control but in the artifact."
        ),
    ),
    Symptom(
        name="laravel-storage-permissions",
        pattern=(
            r"(?-i:could not be opened in append mode"
            r"|storage/logs/laravel\.log"
            r"|bootstrap/cache directory must be present and writable"
            r"|storage/framework/\w+[^\n]{0,40}(Permission denied|No such file))"
        ),
        explains=(
            "The web server user cannot write storage or bootstrap/cache, often after running "
            "artisan as root or a fresh deploy; set ownership and permissions on writable "
            "directories in the deploy script, create storage links."
        ),
        environment=True,
    ),
    Symptom(
        name="composer-psr4-autoload",
        pattern=(
            r"(?-i:does not comply with psr-4 autoloading standard"
            r"|does not comply with psr-0"
            r"|Class \"?[\w\\]{1,120}\"? located in)"
        ),
        explains=(
            "The class name, namespace or file path does not match the PSR-4 mapping, often a "
            "case mismatch visible only on Linux; keep namespace prefix, directory and file name "
            "identical in case, run composer dump-autoload in CI."
        ),
    ),
    Symptom(
        name="symfony-service-resource",
        pattern=(
            r"(?-i:while importing services from resource"
            r"|Check the namespace prefix used with the resource"
            r"|Expected to find class \"[^\n]{0,120}\" in file)"
        ),
        explains=(
            "A class under a services resource directory has a namespace that does not match its "
            "path, or the file holds no class; align namespace prefix and directory (PSR-4), "
            "exclude non-service directories in services.yaml."
        ),
    ),
    Symptom(
        name="wordpress-db-connection",
        pattern=(
            r"(?-i:Error establishing a database connection"
            r"|Briefly unavailable for scheduled maintenance"
            r"|Error establishing a Redis connection)"
        ),
        explains=(
            "WordPress cannot reach its database (wrong DB_HOST or credentials in wp-config.php, "
            "server down) or a stale .maintenance file remains; keep credentials in environment "
            "config, check the database service, remove interrupted update locks."
        ),
        environment=True,
    ),
    Symptom(
        name="php-upload-limits",
        pattern=(
            r"(?-i:exceeds the upload_max_filesize"
            r"|upload_max_filesize"
            r"|post_max_size"
            r"|POST Content-Length of [^\n]{0,30}exceeds the limit)"
        ),
        explains=(
            "The upload is larger than PHP limits; raise upload_max_filesize and post_max_size "
            "together with the web server body limit, validate size before uploading, use chunked "
            "or direct-to-storage uploads."
        ),
        environment=True,
    ),
    Symptom(
        name="rails-asset-pipeline",
        pattern=(
            r"(?-i:AssetNotPrecompiled"
            r"|was not declared to be precompiled"
            r"|is not present in the asset pipeline"
            r"|Propshaft::MissingAssetError"
            r"|Webpacker::Manifest::MissingEntryError"
            r"|Shakapacker::Manifest::MissingEntryError"
            r"|jsbundling-rails"
            r"|cssbundling-rails)"
        ),
        explains=(
            "An asset is referenced but not built or not in the manifest: assets:precompile not "
            "run, missing link in manifest.js, or the JS bundler build skipped; precompile in CI "
            "and deploy, declare entries, pin Node and bundler versions."
        ),
    ),
    Symptom(
        name="rails-blocked-host",
        pattern=(
            r"(?-i:Blocked hosts?: "
            r"|HostAuthorization"
            r"|To allow requests to these hosts)"
        ),
        explains=(
            "Rails host authorization rejected the Host header of a tunnel, container or "
            "production domain; add allowed hosts to config.hosts per environment from "
            "configuration, not a blanket clear."
        ),
    ),
    Symptom(
        name="rails-stale-object",
        pattern=(
            r"(?-i:StaleObjectError"
            r"|Attempted to (update|destroy) a stale object)"
        ),
        explains=(
            "Optimistic locking detected a concurrent update through lock_version; reload and "
            "retry in a transaction, show a conflict to the user, keep updates short, use "
            "pessimistic locks where contention is expected."
        ),
    ),
    Symptom(
        name="rails-devise-warden",
        pattern=(
            r"(?-i:Could not find a valid mapping for"
            r"|Devise::MissingWarden"
            r"|Warden::NotAuthenticated"
            r"|Could not find devise mapping)"
        ),
        explains=(
            "Devise helpers ran without a route mapping or Warden middleware, often in controller "
            "or request specs; include Devise::Test helpers, declare devise_for routes, sign in "
            "users with test helpers."
        ),
    ),
    Symptom(
        name="spring-whitelabel-error",
        pattern=(
            r"(?-i:Whitelabel Error Page"
            r"|This application has no explicit mapping for /error"
            r"|NoResourceFoundException"
            r"|No static resource"
            r"|No mapping for (GET|POST|PUT|DELETE|PATCH))"
        ),
        explains=(
            "No controller matched the request: wrong path or prefix, controller outside the "
            "component scan package, missing @RestController; keep controllers under the "
            "application package, define a global error handler, test endpoints with MockMvc."
        ),
    ),
    Symptom(
        name="spring-request-validation",
        pattern=(
            r"(?-i:MethodArgumentNotValidException"
            r"|ConstraintViolationException"
            r"|HandlerMethodValidationException"
            r"|Validation failed for argument"
            r"|BindException)"
        ),
        explains=(
            "Request data failed Bean Validation constraints; validate DTOs with @Valid, return "
            "400 with field errors from a @ControllerAdvice, keep client and server contracts in "
            "sync, test invalid input."
        ),
    ),
    Symptom(
        name="web-http-method-media-type",
        pattern=(
            r"(?-i:HttpRequestMethodNotSupportedException"
            r"|HttpMediaTypeNotSupportedException"
            r"|HttpMediaTypeNotAcceptableException"
            r"|Method Not Allowed"
            r"|Unsupported Media Type"
            r"|Request method '\w+' (is )?not supported"
            r"|Content-Type '[^\n']{1,80}' is not supported)"
        ),
        explains=(
            "The request used a method the route does not accept (405) or a Content-Type or "
            "Accept the handler cannot produce (415/406); send the right headers and JSON body, "
            "declare consumes/produces, align routes and clients."
        ),
    ),
    Symptom(
        name="dotnet-json-reference-cycle",
        pattern=(
            r"(?-i:A possible object cycle was detected"
            r"|Self referencing loop detected"
            r"|ReferenceHandler\.Preserve"
            r"|ReferenceLoopHandling)"
        ),
        explains=(
            "Entities with navigation properties were serialised directly and reference each "
            "other; return DTOs or projections instead of EF entities, or configure "
            "ReferenceHandler.IgnoreCycles deliberately."
        ),
    ),
    Symptom(
        name="aspnet-startup-hosting",
        pattern=(
            r"(?-i:ASP\.NET Core app failed to start"
            r"|ANCM In-Process Start Failure"
            r"|Failed to start application"
            r"|HTTP Error 502\.5"
            r"|Unable to configure HTTPS endpoint"
            r"|developer certificate could not be found)"
        ),
        explains=(
            "The ASP.NET Core host failed at startup: missing configuration or connection string, "
            "missing runtime, or no HTTPS development certificate; check stdout logs, validate "
            "options on start, run dotnet dev-certs https --trust locally."
        ),
        environment=True,
    ),
    Symptom(
        name="go-router-conflict",
        pattern=(
            r"(?-i:conflicts with existing children"
            r"|conflicts with existing wildcard"
            r"|handlers are already registered for path"
            r"|catch-all conflicts with existing"
            r"|wildcard route '[^\n']{1,60}' conflicts"
            r"|chi: routing pattern)"
        ),
        explains=(
            "Two routes overlap in the router tree (a wildcard next to a static segment, or a "
            "duplicate registration); design non-ambiguous REST paths, register each route once, "
            "group routes by prefix."
        ),
    ),
    Symptom(
        name="go-html-template-exec",
        pattern=(
            r"(?-i:can't evaluate field"
            r"|executing \"[^\n\"]{1,80}\" at <"
            r"|template: [\w.-]{1,80}: (no such template|function \"\w+\" not defined)"
            r"|html/template: [^\n]{0,80}(ZgotmplZ|is an incomplete))"
        ),
        explains=(
            "A Go template references a field or function the data does not have: unexported "
            "field, pointer versus value, or a missing FuncMap entry; pass typed view models, "
            "export fields, parse templates at startup and test rendering."
        ),
    ),
    Symptom(
        name="go-gorm-record-not-found",
        pattern=(
            r"(?-i:record not found"
            r"|ErrRecordNotFound"
            r"|gorm: unsupported (data|relations)"
            r"|invalid value, should be pointer to struct or slice)"
        ),
        explains=(
            "GORM First or Take found no row, or the destination was not a pointer; check "
            "errors.Is(err, gorm.ErrRecordNotFound), use Find for optional rows, pass pointers, "
            "seed test data per test."
        ),
    ),
    Symptom(
        name="android-sdk-aar-metadata",
        pattern=(
            r"(?-i:checkDebugAarMetadata"
            r"|checkReleaseAarMetadata"
            r"|to compile against version \d+ or later of the Android APIs"
            r"|cannot be smaller than version \d+ declared in library"
            r"|Manifest merger failed)"
        ),
        explains=(
            "A dependency needs a higher compileSdk or minSdk than the app declares, or manifests "
            "conflict; raise compileSdk and targetSdk with the Android Gradle plugin, align "
            "library versions with a version catalog, add tools:replace deliberately."
        ),
    ),
    Symptom(
        name="android-install-failed",
        pattern=(
            r"(?-i:INSTALL_FAILED_\w+"
            r"|INSTALL_PARSE_FAILED_\w+"
            r"|signatures do not match previously installed version"
            r"|Failed to install the app)"
        ),
        explains=(
            "The device rejected the APK: a build signed with another key is installed, the "
            "minSdk or ABI does not fit, or storage is full; uninstall the old build, use "
            "consistent debug keystores, match ABIs and minSdk."
        ),
        environment=True,
    ),
    Symptom(
        name="android-room-migration",
        pattern=(
            r"(?-i:Room cannot verify the data integrity"
            r"|A migration from \d+ to \d+ was required but not found"
            r"|Migration didn't properly handle"
            r"|Pre-packaged database has an invalid schema)"
        ),
        explains=(
            "The Room schema changed without a version bump or migration; increment the database "
            "version, write and test Migration objects with exported schemas, never rely on "
            "destructive migration in production."
        ),
    ),
    Symptom(
        name="android-fragment-lifecycle",
        pattern=(
            r"(?-i:not attached to a context"
            r"|not attached to an activity"
            r"|Fragment [\w{}]{1,80} not attached"
            r"|Can not perform this action after onSaveInstanceState"
            r"|IllegalStateException: Fragment already added)"
        ),
        explains=(
            "A callback touched a Fragment after it was detached or after state was saved, "
            "typically from an async result; collect flows with viewLifecycleOwner and "
            "repeatOnLifecycle, cancel work in onDestroyView, use a ViewModel."
        ),
    ),
    Symptom(
        name="android-cleartext-network",
        pattern=(
            r"(?-i:Cleartext HTTP traffic to [^\n]{1,80} not permitted"
            r"|CLEARTEXT communication to [^\n]{1,80} not permitted"
            r"|network-security-config)"
        ),
        explains=(
            "Android blocks plain HTTP by default; use HTTPS endpoints, or allow cleartext only "
            "for local development hosts in a debug network security config, never globally in "
            "release builds."
        ),
    ),
    Symptom(
        name="android-resource-linking",
        pattern=(
            r"(?-i:AAPT: error"
            r"|Android resource linking failed"
            r"|resource [\w/]{1,80} \(aka [^\n)]{1,80}\) not found"
            r"|mergeDebugResources"
            r"|error: style attribute)"
        ),
        explains=(
            "A layout or manifest references a resource or attribute that does not exist in the "
            "module or its dependencies; check resource names and namespaces, add the library "
            "that defines the theme, keep resources in the right module."
        ),
    ),
    Symptom(
        name="android-sdk-location",
        pattern=(
            r"(?-i:SDK location not found"
            r"|ANDROID_HOME"
            r"|ANDROID_SDK_ROOT"
            r"|sdk\.dir"
            r"|Failed to find target with hash string"
            r"|Failed to find Build Tools revision"
            r"|licences? (have )?not been accepted)"
        ),
        explains=(
            "The Android SDK is not installed or not configured on this machine: no ANDROID_HOME "
            "or local.properties, missing platform or build tools, unaccepted licenses; install "
            "components with sdkmanager and set up CI images."
        ),
        environment=True,
    ),
    Symptom(
        name="swiftui-state-update",
        pattern=(
            r"(?-i:Publishing changes from within view updates is not allowed"
            r"|Modifying state during view update"
            r"|Accessing State's value outside of being installed on a View"
            r"|@MainActor[^\n]{0,40}Sendable)"
        ),
        explains=(
            "SwiftUI state was mutated during view rendering or off the main actor; move side "
            "effects into task, onAppear or onChange, keep view models @MainActor, use "
            "@Observable and bindings instead of mutating in body."
        ),
    ),
    Symptom(
        name="cocoapods-repo-out-of-date",
        pattern=(
            r"(?-i:CocoaPods's specs repository is too out-of-date"
            r"|specs repository is too out-of-date"
            r"|pod repo update"
            r"|CDN: trunk)"
        ),
        explains=(
            "The local CocoaPods specs repository or Podfile.lock is stale, or the platform "
            "version in the Podfile is too low; run pod repo update, commit Podfile.lock, pin the "
            "CocoaPods version and iOS deployment target."
        ),
        environment=True,
    ),
    Symptom(
        name="hosted-deploy-build",
        pattern=(
            r"(?-i:Deploy did not succeed"
            r"|Build script returned non-zero exit code"
            r"|No Output Directory named"
            r"|Function Runtimes must have a valid version"
            r"|Command \"(npm|pnpm|yarn|bun) run build\" exited with"
            r"|Failed during stage 'building site')"
        ),
        explains=(
            "The platform's build step failed: a build that passes locally but uses another Node "
            "version, missing environment variables, a wrong output directory or framework "
            "preset; pin the Node version, set env vars per environment, build in CI first."
        ),
    ),
    Symptom(
        name="cloudflare-worker-exception",
        pattern=(
            r"(?-i:Worker threw exception"
            r"|Error 1101"
            r"|Error 1102"
            r"|Worker exceeded (CPU|memory|resource)"
            r"|exceeded CPU time limit"
            r"|Too many subrequests)"
        ),
        explains=(
            "A Cloudflare Worker threw an uncaught error or hit a CPU, memory or subrequest "
            "limit; catch and log errors, move heavy work to queues or durable objects, batch "
            "subrequests, avoid work at global scope."
        ),
    ),
    Symptom(
        name="firebase-functions-deploy",
        pattern=(
            r"(?-i:Failed to load function definition from source"
            r"|Failed to generate manifest from function source"
            r"|functions: [^\n]{0,80}(failed|error)"
            r"|Cloud Functions API has not been used"
            r"|Error: Failed to create function)"
        ),
        explains=(
            "Cloud Functions could not analyse or deploy the source: a build or import error, "
            "wrong Node runtime or module type, or a Google Cloud API not enabled; build and "
            "emulate functions locally, pin the runtime, enable required APIs."
        ),
    ),
    Symptom(
        name="lambda-proxy-response",
        pattern=(
            r"(?-i:Malformed Lambda proxy response"
            r"|Internal server error\"\}"
            r"|Execution failed due to configuration error"
            r"|Invalid permissions on Lambda function)"
        ),
        explains=(
            "API Gateway received a Lambda result that is not a proxy response (statusCode, "
            "headers, string body) or cannot invoke the function; return the proxy shape with a "
            "JSON-stringified body, grant invoke permission, log errors."
        ),
    ),
    Symptom(
        name="llm-context-length",
        pattern=(
            r"(?-i:maximum context length"
            r"|context_length_exceeded"
            r"|prompt is too long"
            r"|input is too long"
            r"|exceeds the context window"
            r"|Please reduce (the length of the messages|your prompt)"
            r"|string_above_max_length"
            r"|too many tokens)"
        ),
        explains=(
            "The prompt plus requested output exceeds the model's context window; count tokens "
            "before sending, truncate or summarise history, chunk documents for retrieval, "
            "reserve max_tokens for the completion."
        ),
    ),
    Symptom(
        name="llm-quota-billing",
        pattern=(
            r"(?-i:insufficient_quota"
            r"|exceeded your current quota"
            r"|credit balance is too low"
            r"|billing_hard_limit"
            r"|check your plan and billing details)"
        ),
        explains=(
            "The API account has no remaining credits or hit its spending limit, not a transient "
            "rate limit; check billing and usage limits, alert on spend, fail fast instead of "
            "retrying."
        ),
        environment=True,
    ),
    Symptom(
        name="llm-api-key-auth",
        pattern=(
            r"(?-i:invalid x-api-key"
            r"|Incorrect API key provided"
            r"|invalid_api_key"
            r"|authentication_error"
            r"|api_key client option must be set"
            r"|OPENAI_API_KEY"
            r"|ANTHROPIC_API_KEY"
            r"|x-api-key header is required"
            r"|openai\.AuthenticationError"
            r"|anthropic\.AuthenticationError)"
        ),
        explains=(
            "The LLM client has no API key or an invalid, revoked or wrong-project key; load keys "
            "from environment variables or a secret manager, never hard-code or commit them, "
            "validate configuration at startup."
        ),
        environment=True,
    ),
    Symptom(
        name="llm-overloaded-transient",
        pattern=(
            r"(?-i:overloaded_error"
            r"|APITimeoutError"
            r"|APIConnectionError"
            r"|InternalServerError: Error code: 5\d\d"
            r"|ServiceUnavailableError"
            r"|Error code: 529)"
        ),
        explains=(
            "The LLM provider was overloaded or the request timed out; retry with exponential "
            "backoff and jitter, set client timeouts and max_retries, stream long responses, add "
            "a fallback model and keep calls idempotent."
        ),
        environment=True,
    ),
    Symptom(
        name="llm-message-structure",
        pattern=(
            r"(?-i:tool_use ids were found without tool_result"
            r"|tool_result block"
            r"|roles must alternate"
            r"|must be followed by tool messages"
            r"|must be a response to a preceeding message with 'tool_calls'"
            r"|first message must use the \"user\" role"
            r"|tool_call_id)"
        ),
        explains=(
            "The conversation sent to the chat API is malformed: tool calls without their "
            "results, roles not alternating, or a tool message without its call; keep tool call "
            "and result pairs together when trimming history, validate messages before sending."
        ),
    ),
    Symptom(
        name="llm-model-not-found",
        pattern=(
            r"(?-i:model_not_found"
            r"|does not exist or you do not have access to it"
            r"|not_found_error[^\n]{0,80}model"
            r"|The model `[^\n`]{1,80}` does not exist"
            r"|Unknown model"
            r"|model \"[^\n\"]{1,80}\" not found"
            r"|try pulling it first)"
        ),
        explains=(
            "The requested model name is misspelled, retired, not available to the account or "
            "region, or not pulled locally (Ollama); keep model ids in configuration, pin dated "
            "model versions, check availability at startup."
        ),
    ),
    Symptom(
        name="llm-structured-output-schema",
        pattern=(
            r"(?-i:Invalid schema for (function|response_format)"
            r"|'additionalProperties' is required"
            r"|JSON schema is invalid"
            r"|invalid_function_parameters"
            r"|Invalid 'tools\["
            r"|input_schema"
            r"|response_format)"
        ),
        explains=(
            "A tool or structured output JSON schema is rejected: strict mode needs "
            "additionalProperties false and every property required, unsupported keywords or "
            "types; generate schemas from typed models (Pydantic, Zod) and test them."
        ),
    ),
    Symptom(
        name="llm-content-filter",
        pattern=(
            r"(?-i:content_filter"
            r"|content_policy_violation"
            r"|ResponsibleAIPolicyViolation"
            r"|content management policy"
            r"|flagged by (our|the) (safety|moderation))"
        ),
        explains=(
            "The provider's safety filter blocked the prompt or completion; handle refusals and "
            "finish_reason content_filter explicitly, sanitise and moderate user input, do not "
            "retry the same request blindly."
        ),
    ),
    Symptom(
        name="langchain-output-parser",
        pattern=(
            r"(?-i:OutputParserException"
            r"|Could not parse LLM output"
            r"|Failed to parse [\w]{1,60} from completion"
            r"|Invalid json output"
            r"|OutputFixingParser)"
        ),
        explains=(
            "The model returned text that does not match the expected format; use native "
            "structured output or tool calling with a schema, lower temperature, validate with "
            "Pydantic and retry with the parse error."
        ),
    ),
    Symptom(
        name="langchain-deprecation-imports",
        pattern=(
            r"(?-i:LangChainDeprecationWarning"
            r"|was deprecated in LangChain"
            r"|langchain_community"
            r"|has been moved to langchain"
            r"|LangChainBetaWarning)"
        ),
        explains=(
            "A LangChain class moved to a partner package or was deprecated between versions; "
            "import from langchain-openai, langchain-anthropic and similar packages, pin "
            "LangChain versions together, follow the migration guide."
        ),
    ),
    Symptom(
        name="langgraph-recursion-limit",
        pattern=(
            r"(?-i:GraphRecursionError"
            r"|Recursion limit of \d+ reached"
            r"|recursion_limit)"
        ),
        explains=(
            "An agent loop kept calling tools or nodes without reaching a stop condition; add "
            "explicit termination edges, cap iterations, check tool results for errors, and keep "
            "the recursion_limit as a safety net."
        ),
    ),
    Symptom(
        name="vector-db-dimension-mismatch",
        pattern=(
            r"(?-i:InvalidDimensionException"
            r"|does not match collection dimensionality"
            r"|Vector dimension \d+ does not match"
            r"|expected \d+ dimensions, not \d+"
            r"|different vector dimensions"
            r"|Embedding dimension \d+ does not match)"
        ),
        explains=(
            "Vectors from one embedding model were written into an index built for another "
            "model's dimension; store the embedding model and dimension with the index, re-embed "
            "on model change, pin the embedding model version."
        ),
    ),
    Symptom(
        name="vector-db-collection-missing",
        pattern=(
            r"(?-i:Collection `?[\w-]{1,80}`? doesn't exist"
            r"|Collection [\w\"'-]{1,80} does not exist"
            r"|CollectionNotFound"
            r"|type \"vector\" does not exist"
            r"|extension \"vector\" is not available)"
        ),
        explains=(
            "The vector collection, index or pgvector extension was never created in this "
            "environment; create collections and CREATE EXTENSION vector in migrations or "
            "startup, keep names in configuration, seed test stores."
        ),
    ),
)
