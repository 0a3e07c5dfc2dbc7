"""Failure glossary, coverage pass: systems and operations errors the other files miss.

C/C++, Rust, Go, JVM builds, databases, containers, cloud, CI, git, network, embedded, chains,
science and game engines."""

from __future__ import annotations

from fireworks_skill_memory.memory.retrieval.glossary.symptom import Symptom

SYMPTOMS: tuple[Symptom, ...] = (
    Symptom(
        name="cpp-missing-std-include",
        pattern=(
            r"(?-i:has not been declared"
            r"|did you forget to '#include"
            r"|is defined in header '<"
            r"|is not a member of '(?:std|boost)::)"
        ),
        explains=(
            "A standard library or third-party name is used without including its header, relying "
            "on transitive includes; include what you use, add the exact header, compile with the "
            "intended -std language standard."
        ),
    ),
    Symptom(
        name="cpp-syntax-expected",
        pattern=(
            r"(?-i:expected ';' after (?:class|struct) definition"
            r"|expected unqualified-id"
            r"|expected primary-expression before"
            r"|expected '}' at end of input"
            r"|expected declaration or statement at end of input"
            r"|expected initializer before"
            r"|expected ';' before)"
        ),
        explains=(
            "A C or C++ syntax error: missing semicolon after a class, unbalanced braces, or a "
            "macro expanding unexpectedly; keep code formatted with clang-format, build often, "
            "and enable compiler warnings early."
        ),
    ),
    Symptom(
        name="cpp-no-member",
        pattern=(r"(?-i:no member named)"),
        explains=(
            "A member is called that the type does not have: a typo, wrong type, an API changed "
            "between library versions, or a missing derived cast; pin dependency versions, prefer "
            "strong types and let the IDE or clangd check."
        ),
    ),
    Symptom(
        name="cpp-language-standard",
        pattern=(
            r"(?-i:requires compiler and library support for the ISO C\+\+"
            r"|is only available with -std="
            r"|only available with '?-std="
            r"|is a C\+\+\d\d extension"
            r"|ISO C\+\+\d\d does not allow"
            r"|is a C\+\+\d\d \[-W)"
        ),
        explains=(
            "A feature of a newer C++ standard is used while the compiler builds an older one; "
            "set CMAKE_CXX_STANDARD and CMAKE_CXX_STANDARD_REQUIRED per target, pin the toolchain "
            "version, keep the standard consistent across targets."
        ),
    ),
    Symptom(
        name="c-linker-pic-relocation",
        pattern=(
            r"(?-i:relocation R_\w+ against"
            r"|recompile with -fPI[CE]"
            r"|can not be used when making a (?:PIE|shared) object)"
        ),
        explains=(
            "A static library or object built without position-independent code is linked into a "
            "shared library or PIE; set CMAKE_POSITION_INDEPENDENT_CODE ON, build dependencies "
            "with -fPIC, keep build flags consistent."
        ),
    ),
    Symptom(
        name="linux-shared-library-missing",
        pattern=(
            r"(?-i:error while loading shared libraries"
            r"|cannot open shared object file"
            r"|Library not loaded: )"
        ),
        explains=(
            "The runtime linker cannot find a shared library: the package is missing from the "
            "runtime image, rpath or LD_LIBRARY_PATH is unset, or a multi-stage Docker build "
            "dropped runtime dependencies; install runtime packages, set rpath, run ldconfig, or "
            "link statically."
        ),
        environment=True,
    ),
    Symptom(
        name="linux-glibc-version",
        pattern=(
            r"(?-i:version [`']GLIBC_"
            r"|version [`']GLIBCXX_"
            r"|version [`']CXXABI_"
            r"|GLIBCXX_[\d.]+' not found"
            r"|GLIBC_[\d.]+' not found)"
        ),
        explains=(
            "The binary was built on a newer distribution than the one running it (glibc or "
            "libstdc++ too old); build in the oldest supported base image, pin the build "
            "container, or link statically with musl."
        ),
        environment=True,
    ),
    Symptom(
        name="cmake-stale-cache",
        pattern=(
            r"(?-i:CMakeCache\.txt directory [^\n]{1,160} is different than"
            r"|does not match the generator used previously"
            r"|Does not match the generator used previously"
            r"|does not match the source [^\n]{1,160} used to generate cache)"
        ),
        explains=(
            "A build directory was copied, moved, or reused with another generator, so its "
            "CMakeCache is stale; use out-of-source build directories per configuration, delete "
            "the cache and reconfigure, never commit build directories."
        ),
    ),
    Symptom(
        name="cmake-target-not-found",
        pattern=(
            r"(?-i:but the target was not found"
            r"|links to target \"[^\"\n]{1,80}\" but"
            r"|Perhaps a find_package\(\) call is missing"
            r"|Cannot specify link libraries for target"
            r"|Cannot specify include directories for target"
            r"|is not built by this project)"
        ),
        explains=(
            "A CMake target is referenced before it exists or without its find_package; call "
            "find_package or add_subdirectory first, use namespaced imported targets (Foo::Foo), "
            "target_link_libraries per target in modern CMake."
        ),
    ),
    Symptom(
        name="cpp-package-manager",
        pattern=(
            r"(?-i:Missing prebuilt package for"
            r"|Missing binary: "
            r"|ERROR: Missing binary"
            r"|Try to build locally from sources using the '--build"
            r"|error: building [\w-]+:[\w-]+ failed with"
            r"|BUILD_FAILED"
            r"|vcpkg install failed)"
        ),
        explains=(
            "A Conan or vcpkg dependency has no prebuilt binary for this profile, triplet or "
            "compiler, or its source build failed; pin package versions in a lockfile or "
            "manifest, use --build=missing, keep profiles and toolchains consistent, cache "
            "binaries in CI."
        ),
    ),
    Symptom(
        name="embedded-newlib-syscalls",
        pattern=(
            r"(?-i:undefined reference to `_(?:sbrk|write|read|close|lseek|fstat|isatty|exit|kill|getpid)'"  # noqa: E501
            r"|nosys\.specs"
            r"|is not implemented and will always fail)"
        ),
        explains=(
            "A bare-metal build calls libc functions (printf, malloc) whose newlib system calls "
            "are not provided; implement syscalls.c (_write, _sbrk) or link --specs=nosys.specs "
            "or nano.specs, avoid heap allocation on microcontrollers."
        ),
    ),
    Symptom(
        name="rust-unstable-feature",
        pattern=(
            r"(?-i:use of unstable library feature"
            r"|E0658"
            r"|requires a nightly"
            r"|only accepted on the nightly compiler"
            r"|may not be used on the stable release channel)"
        ),
        explains=(
            "Code or a dependency uses an unstable nightly feature, or needs a newer compiler "
            "than the installed one; pin the toolchain in rust-toolchain.toml, declare "
            "rust-version (MSRV), avoid nightly-only features in libraries."
        ),
    ),
    Symptom(
        name="rust-target-missing",
        pattern=(
            r"(?-i:E0463"
            r"|can't find crate for `(?:core|std)`"
            r"|target may not be installed"
            r"|rustup target add)"
        ),
        explains=(
            "The standard library for the cross-compilation target is not installed, or an extern "
            "crate is missing; run rustup target add, list targets in rust-toolchain.toml, use "
            "no_std correctly for embedded targets, declare dependencies in Cargo.toml."
        ),
        environment=True,
    ),
    Symptom(
        name="systems-format-check",
        pattern=(
            r"(?-i:Diff in [^\n]{1,200}\.rs"
            r"|code should be clang-formatted"
            r"|clang-format-violations"
            r"|had format violations"
            r"|spotless\w*Check"
            r"|scalafmt[^\n]{0,60}(?:mis-formatted|--test)"
            r"|formatted incorrectly"
            r"|Run 'terraform fmt"
            r"|terraform fmt -check)"
        ),
        explains=(
            "A formatter check (rustfmt, clang-format, Spotless, scalafmt, terraform fmt) found "
            "unformatted files; run the formatter before committing, use a pre-commit hook, pin "
            "the formatter version and share its config file."
        ),
    ),
    Symptom(
        name="cargo-manifest-workspace",
        pattern=(
            r"(?-i:could not find `Cargo\.toml`"
            r"|failed to parse manifest at"
            r"|believes it's in a workspace when it's not"
            r"|failed to load manifest for"
            r"|error inheriting `[\w-]+` from workspace"
            r"|feature `edition20\d\d` is required"
            r"|lock file version \d+ requires)"
        ),
        explains=(
            "Cargo cannot read the manifest or workspace: wrong directory, a member missing from "
            "[workspace] members, inheritance from the workspace root, or an old cargo for a new "
            "edition or lockfile; pin the toolchain and keep workspace membership explicit."
        ),
    ),
    Symptom(
        name="cargo-registry-network",
        pattern=(
            r"(?-i:failed to download from `"
            r"|Unable to update registry"
            r"|spurious network error"
            r"|failed to get `[\w-]+` as a dependency"
            r"|failed to fetch `https://"
            r"|index\.crates\.io[^\n]{0,80}(?:timed out|failed))"
        ),
        explains=(
            "Cargo could not reach crates.io or a private registry: network, proxy, TLS "
            "interception, or missing registry credentials; vendor or cache dependencies in CI, "
            "commit Cargo.lock, configure registry tokens and retries."
        ),
        environment=True,
    ),
    Symptom(
        name="go-checksum-mismatch",
        pattern=(
            r"(?-i:verifying module: checksum mismatch"
            r"|verifying [^\n]{1,120}: checksum mismatch"
            r"|SECURITY ERROR"
            r"|go\.sum: [^\n]{0,40}mismatch)"
        ),
        explains=(
            "A Go module's content differs from the hash recorded in go.sum: a retagged or "
            "force-pushed version, a replaced module, or a corrupted module cache; never retag "
            "releases, run go clean -modcache, keep go.sum committed and verified."
        ),
    ),
    Symptom(
        name="go-private-module",
        pattern=(
            r"(?-i:terminal prompts disabled"
            r"|410 Gone"
            r"|sum\.golang\.org[^\n]{0,80}(?:404|410|not found)"
            r"|GOPRIVATE"
            r"|GONOSUMDB)"
        ),
        explains=(
            "A private Go module is fetched through the public proxy and checksum database, or "
            "git has no credentials; set GOPRIVATE and GONOSUMDB, configure git credentials or a "
            "netrc token in CI, use an insteadOf URL rewrite."
        ),
        environment=True,
    ),
    Symptom(
        name="go-cgo-compiler",
        pattern=(
            r"(?-i:cgo: C compiler \"[^\"\n]{1,40}\" not found"
            r"|C compiler \"gcc\" not found"
            r"|requires cgo to work"
            r"|compiled with 'CGO_ENABLED=0'"
            r"|cgo: exec )"
        ),
        explains=(
            "A package needs cgo (sqlite3, librdkafka) but no C compiler is installed or "
            "CGO_ENABLED=0; install build-essential in the build image, enable cgo deliberately, "
            "or choose a pure-Go driver for static binaries."
        ),
        environment=True,
    ),
    Symptom(
        name="go-workspace-vendoring",
        pattern=(
            r"(?-i:inconsistent vendoring"
            r"|To sync the vendor directory"
            r"|cannot find main module"
            r"|does not contain main module"
            r"|main module \([^\n]{1,80}\) does not contain package"
            r"|-mod=vendor)"
        ),
        explains=(
            "The Go command runs outside the module, a go.work file changes which modules are "
            "used, or vendor/ is out of sync with go.mod; run go mod vendor after changes, commit "
            "go.work only deliberately, run commands from the module root."
        ),
    ),
    Symptom(
        name="gradle-task-dependencies",
        pattern=(
            r"(?-i:Could not resolve all task dependencies"
            r"|Could not determine the dependencies of task"
            r"|Could not find [\w.-]+:[\w.-]+\.\d"
            r"|Searched in the following locations"
            r"|No matching variant of"
            r"|Incompatible because this component declares)"
        ),
        explains=(
            "Gradle cannot resolve a dependency: wrong coordinates or version, a repository "
            "missing from settings, a private repository without credentials, or a variant for "
            "another JVM version; use a version catalog, declare repositories centrally, pin "
            "versions and toolchains."
        ),
    ),
    Symptom(
        name="gradle-daemon-lock",
        pattern=(
            r"(?-i:Timeout waiting to lock"
            r"|currently in use by another Gradle instance"
            r"|Gradle build daemon disappeared unexpectedly"
            r"|daemon has terminated unexpectedly"
            r"|Expiring Daemon because JVM heap space is exhausted)"
        ),
        explains=(
            "A Gradle daemon crashed, ran out of memory, or another build holds the cache lock; "
            "set org.gradle.jvmargs heap in gradle.properties, avoid concurrent builds on one "
            "cache, use --no-daemon in CI, stop stale daemons."
        ),
        environment=True,
    ),
    Symptom(
        name="jvm-jdk-missing",
        pattern=(
            r"(?-i:No compiler is provided in this environment"
            r"|running on a JRE rather than a JDK"
            r"|JAVA_HOME environment variable is not defined correctly"
            r"|JAVA_HOME is not set"
            r"|JAVA_HOME is set to an invalid directory)"
        ),
        explains=(
            "The build runs on a JRE or JAVA_HOME points to no JDK; install a full JDK, set "
            "JAVA_HOME, use Gradle toolchains or the Maven toolchains plugin to pin the Java "
            "version, and the same JDK in CI."
        ),
        environment=True,
    ),
    Symptom(
        name="jvm-static-analysis",
        pattern=(
            r"(?-i:Checkstyle violations?"
            r"|reported by Checkstyle"
            r"|PMD Failure"
            r"|PMD violations?"
            r"|Total bugs: "
            r"|BugInstance"
            r"|\[ErrorProne\]"
            r"|error-prone"
            r"|detekt found"
            r"|Execution failed for task '[^'\n]{1,60}:(?:checkstyle|pmd|spotbugs|detekt)\w*')"
        ),
        explains=(
            "A static analysis gate (Checkstyle, PMD, SpotBugs, Error Prone, detekt) found rule "
            "violations; fix the flagged code, keep the shared ruleset in the repository, run the "
            "checks locally before pushing, suppress only with a justification."
        ),
    ),
    Symptom(
        name="scala-found-required-mismatch",
        pattern=(
            r"(?-i:\[error\] found ?:"
            r"|\[error\] required ?:"
            r"|Found: [^\n]{1,100} Required: "
            r"|object \w+ is not a member of package)"
        ),
        explains=(
            "A Scala type mismatch or missing package: the expression has another type than "
            "expected (Option vs value, Future vs result) or a dependency is absent from "
            "build.sbt; annotate types, use map/flatMap over Option and Future, declare library "
            "dependencies."
        ),
    ),
    Symptom(
        name="kafka-topic-limits",
        pattern=(
            r"(?-i:InvalidReplicationFactorException"
            r"|larger than available brokers"
            r"|NotEnoughReplicasException"
            r"|NOT_ENOUGH_REPLICAS"
            r"|TopicExistsException"
            r"|InvalidPartitionsException"
            r"|PolicyViolationException"
            r"|min\.insync\.replicas"
            r"|RecordTooLargeException"
            r"|MESSAGE_TOO_LARGE"
            r"|RecordBatchTooLargeException"
            r"|larger than the maximum request size"
            r"|max\.request\.size"
            r"|message\.max\.bytes)"
        ),
        explains=(
            "The Kafka topic or message does not fit the cluster's limits: replication factor "
            "above the broker count, too few in-sync replicas, an existing topic, or a message "
            "over max.request.size; create topics as code, keep messages small, store large "
            "payloads externally."
        ),
    ),
    Symptom(
        name="kafka-auth",
        pattern=(
            r"(?-i:SaslAuthenticationException"
            r"|TopicAuthorizationException"
            r"|GroupAuthorizationException"
            r"|ClusterAuthorizationException"
            r"|Not authorized to access (?:topics|group)"
            r"|SslAuthenticationException)"
        ),
        explains=(
            "The Kafka client's SASL or TLS credentials are wrong, or its principal lacks ACLs "
            "for the topic or consumer group; keep credentials in a secrets manager, grant "
            "least-privilege ACLs per service, match security.protocol and sasl.mechanism."
        ),
        environment=True,
    ),
    Symptom(
        name="flink-resources-checkpoint",
        pattern=(
            r"(?-i:NoResourceAvailableException"
            r"|Could not acquire the minimum required resources"
            r"|Checkpoint expired before completing"
            r"|Exceeded checkpoint tolerable failure threshold"
            r"|Checkpoint was declined"
            r"|Insufficient number of network buffers)"
        ),
        explains=(
            "A Flink job lacks task slots or memory, or checkpoints time out under backpressure "
            "or large state; size parallelism to slots, tune checkpoint interval and timeout, use "
            "the RocksDB state backend, set state TTL, fix slow sinks."
        ),
    ),
    Symptom(
        name="flink-type-serialization",
        pattern=(
            r"(?-i:InvalidTypesException"
            r"|could not be determined automatically, due to type erasure"
            r"|is not serializable\. The object probably contains"
            r"|The implementation of the [\w$]+ is not serializable"
            r"|The return type of function [^\n]{1,80} could not be determined)"
        ),
        explains=(
            "A Flink function captures non-serializable fields or loses generic types to Java "
            "type erasure; make functions static or serializable, mark resources transient and "
            "open them in open(), declare types with returns() or TypeInformation."
        ),
    ),
    Symptom(
        name="spark-data-source-package",
        pattern=(
            r"(?-i:Failed to find data source"
            r"|Failed to find the data source"
            r"|deployment section of [^\n]{0,60}Integration Guide"
            r"|NoClassDefFoundError: org/apache/spark/sql/kafka)"
        ),
        explains=(
            "A Spark connector (Kafka, Avro, Delta, JDBC driver) is not on the classpath; pass it "
            "with --packages or spark.jars.packages matching the Spark and Scala versions, or "
            "build an assembly jar with shaded dependencies."
        ),
    ),
    Symptom(
        name="postgres-tool-version-mismatch",
        pattern=(
            r"(?-i:aborting because of server version mismatch"
            r"|pg_dump version"
            r"|unsupported version \([\d.]*\) in file header"
            r"|pg_restore: error: unsupported version)"
        ),
        explains=(
            "pg_dump or pg_restore is older than the server or archive; use client tools of the "
            "same or newer major version, run them from the server's image (docker exec), pin "
            "PostgreSQL versions across environments."
        ),
        environment=True,
    ),
    Symptom(
        name="sql-group-by",
        pattern=(
            r"(?-i:GROUP BY clause"
            r"|GROUP BY expression"
            r"|only_full_group_by"
            r"|ONLY_FULL_GROUP_BY"
            r"|aggregate functions are not allowed in WHERE)"
        ),
        explains=(
            "A selected column is neither grouped nor aggregated (or an aggregate is in WHERE); "
            "group by every non-aggregated column, use HAVING for aggregate filters, window "
            "functions or DISTINCT ON, and test queries against the production database engine."
        ),
    ),
    Symptom(
        name="postgres-extension-missing",
        pattern=(
            r"(?-i:could not open extension control file"
            r"|extension \"[^\"\n]{1,40}\" is not available"
            r"|extension \"[^\"\n]{1,40}\" does not exist"
            r"|function uuid_generate_v4\(\) does not exist"
            r"|type \"vector\" does not exist"
            r"|must be loaded via shared_preload_libraries)"
        ),
        explains=(
            "A PostgreSQL extension (pgvector, uuid-ossp, PostGIS, pg_stat_statements) is not "
            "installed on the server or not created in this database; use an image with the "
            "extension, CREATE EXTENSION IF NOT EXISTS in a migration."
        ),
        environment=True,
    ),
    Symptom(
        name="postgres-not-ready",
        pattern=(
            r"(?-i:database system is (?:starting up|in recovery mode|shutting down|not yet accepting connections)"  # noqa: E501
            r"|terminating connection due to administrator command"
            r"|canceling statement due to conflict with recovery)"
        ),
        explains=(
            "The PostgreSQL server is starting, restarting, failing over or is a replica in "
            "recovery; wait for readiness with a healthcheck (pg_isready, depends_on "
            "service_healthy), retry connections with backoff, run long reads with "
            "hot_standby_feedback."
        ),
        environment=True,
    ),
    Symptom(
        name="postgres-resource-limits",
        pattern=(
            r"(?-i:out of shared memory"
            r"|max_locks_per_transaction"
            r"|could not resize shared memory segment"
            r"|temporary file size exceeds temp_file_limit"
            r"|could not fork new process for connection"
            r"|invalid memory alloc request size)"
        ),
        explains=(
            "PostgreSQL ran out of shared memory, locks or temp space: a small Docker /dev/shm, "
            "too many partitions or locks in one transaction, or huge sorts; raise shm-size and "
            "max_locks_per_transaction, batch work, add indexes."
        ),
        environment=True,
    ),
    Symptom(
        name="postgres-docker-volume-init",
        pattern=(
            r"(?-i:initdb: error: directory \"[^\"\n]{1,100}\" exists but is not empty"
            r"|Database directory appears to contain a database; Skipping initialization"
            r"|data directory \"[^\"\n]{1,100}\" has wrong ownership"
            r"|data directory \"[^\"\n]{1,100}\" has invalid permissions"
            r"|database files are incompatible with server)"
        ),
        explains=(
            "The database container reuses an existing or foreign volume: init scripts and "
            "POSTGRES_PASSWORD are skipped, the data dir has wrong ownership, or the data is from "
            "another major version; use a named volume per version, mount a subdirectory, run "
            "pg_upgrade."
        ),
    ),
    Symptom(
        name="db-read-only-replica",
        pattern=(
            r"(?-i:cannot execute \w+ in a read-only transaction"
            r"|running with the --read-only option"
            r"|ER_OPTION_PREVENTS_STATEMENT"
            r"|super-read-only"
            r"|READONLY You can't write against a read only replica)"
        ),
        explains=(
            "A write went to a read replica or a read-only transaction: the connection string "
            "points at a replica endpoint, or a failover demoted the primary; route writes to the "
            "primary/writer endpoint, separate read and write connections, reconnect after "
            "failover."
        ),
    ),
    Symptom(
        name="mysql-auth-plugin-host",
        pattern=(
            r"(?-i:caching_sha2_password"
            r"|Public Key Retrieval is not allowed"
            r"|Client does not support authentication protocol"
            r"|ER_NOT_SUPPORTED_AUTH_MODE"
            r"|is not allowed to connect to this MySQL server"
            r"|requires secure transport"
            r"|SSL connection error)"
        ),
        explains=(
            "The MySQL client and server disagree on authentication or TLS: caching_sha2_password "
            "with an old driver, the user's host is not granted, or TLS is required; upgrade the "
            "driver, create the user for the right host, configure SSL mode explicitly."
        ),
    ),
    Symptom(
        name="mysql-server-limits",
        pattern=(
            r"(?-i:max_allowed_packet"
            r"|Specified key was too long; max key length is"
            r"|Row size too large"
            r"|ER_TOO_LONG_KEY"
            r"|ER_NET_PACKET_TOO_LARGE"
            r"|--secure-file-priv"
            r"|Loading local data is disabled"
            r"|local_infile"
            r"|LOAD DATA LOCAL INFILE file request rejected)"
        ),
        explains=(
            "A MySQL server limit or option blocks the statement: packets over "
            "max_allowed_packet, index keys too long for utf8mb4, rows too wide, or file import "
            "disabled by secure_file_priv and local_infile; batch inserts, use prefix indexes and "
            "DYNAMIC rows, enable imports deliberately."
        ),
    ),
    Symptom(
        name="mysql-foreign-key-definition",
        pattern=(
            r"(?-i:Foreign key constraint is incorrectly formed"
            r"|errno: 150"
            r"|Failed to open the referenced table"
            r"|Referencing column '[^'\n]{1,60}' and referenced column '[^'\n]{1,60}' in foreign key constraint"  # noqa: E501
            r"|Cannot add foreign key constraint)"
        ),
        explains=(
            "A foreign key definition is invalid: column types, signedness, charset or collation "
            "differ, the referenced table or index does not exist yet, or migrations run out of "
            "order; match column definitions, index the referenced key, order migrations."
        ),
    ),
    Symptom(
        name="sqlite-corruption",
        pattern=(
            r"(?-i:database disk image is malformed"
            r"|file is not a database"
            r"|file is encrypted or is not a database"
            r"|SQLITE_CORRUPT"
            r"|SQLITE_NOTADB"
            r"|SQLITE_IOERR"
            r"|disk I/O error)"
        ),
        explains=(
            "The SQLite file is corrupt, not a database, or unreadable: copied while open without "
            "its WAL files, on a network filesystem, or written by several processes unsafely; "
            "use the backup API, WAL mode on local disks, one writer."
        ),
    ),
    Symptom(
        name="mongodb-query-limits",
        pattern=(
            r"(?-i:Sort exceeded memory limit"
            r"|exceeded memory limit for \$group"
            r"|BSONObjectTooLarge"
            r"|document is larger than the maximum size"
            r"|QueryExceededMemoryLimit"
            r"|MaxTimeMSExpired)"
        ),
        explains=(
            "A MongoDB query or document exceeds limits: an in-memory sort or group without a "
            "supporting index, a document over 16MB from unbounded arrays, or maxTimeMS; add "
            "compound indexes, paginate, allowDiskUse, model unbounded data in separate "
            "collections."
        ),
    ),
    Symptom(
        name="mongodb-replica-set-required",
        pattern=(
            r"(?-i:Transaction numbers are only allowed on a replica set member or mongos"
            r"|does not support retryable writes"
            r"|stage is only supported on replica sets"
            r"|not primary and secondaryOk=false"
            r"|NotWritablePrimary"
            r"|not master and slaveOk=false"
            r"|NotPrimaryNoSecondaryOk)"
        ),
        explains=(
            "Transactions, change streams or retryable writes need a replica set, or a write "
            "reached a secondary; run a single-node replica set in development and tests, use the "
            "replica set connection string, set read preference explicitly."
        ),
    ),
    Symptom(
        name="mongodb-authorization",
        pattern=(
            r"(?-i:not authorized on \w+ to execute command"
            r"|command \w+ requires authentication"
            r"|Command \w+ requires authentication"
            r"|Could not connect to any servers in your MongoDB Atlas cluster"
            r"|IP that isn't whitelisted"
            r"|querySrv ENOTFOUND"
            r"|querySrv ETIMEOUT"
            r"|querySrv ECONNREFUSED)"
        ),
        explains=(
            "The MongoDB user lacks a role on the database, no credentials or authSource were "
            "given, or the client IP is not on the Atlas access list or SRV DNS fails; grant "
            "least-privilege roles, set authSource, allowlist the network."
        ),
        environment=True,
    ),
    Symptom(
        name="redis-replica-cluster-busy",
        pattern=(
            r"(?-i:CLUSTERDOWN"
            r"|TRYAGAIN Multiple keys request"
            r"|MASTERDOWN"
            r"|BUSY Redis is busy running a script"
            r"|NOSCRIPT No matching script"
            r"|max number of clients reached"
            r"|ASK \d+ [\d.]+)"
        ),
        explains=(
            "Redis is unavailable for the request: the cluster is down or resharding, a Lua "
            "script blocks the server, the script cache was flushed, or client connections leak; "
            "use a cluster-aware client, short scripts with EVALSHA fallback, connection pooling."
        ),
    ),
    Symptom(
        name="clickhouse-schema-types",
        pattern=(
            r"(?-i:UNKNOWN_TABLE"
            r"|UNKNOWN_IDENTIFIER"
            r"|UNKNOWN_DATABASE"
            r"|NO_SUCH_COLUMN_IN_TABLE"
            r"|CANNOT_PARSE_TEXT"
            r"|CANNOT_PARSE_DATETIME"
            r"|ILLEGAL_TYPE_OF_ARGUMENT"
            r"|NOT_AN_AGGREGATE"
            r"|Missing columns: '"
            r"|TYPE_MISMATCH)"
        ),
        explains=(
            "A ClickHouse query refers to a missing table or column or mixes types (Nullable, "
            "DateTime formats, String vs numbers); keep schema migrations versioned, cast "
            "explicitly, check the database qualifier and column names against the table "
            "definition."
        ),
    ),
    Symptom(
        name="clickhouse-resource-limits",
        pattern=(
            r"(?-i:MEMORY_LIMIT_EXCEEDED"
            r"|Memory limit \(for (?:query|user|total)\) exceeded"
            r"|TOO_MANY_PARTS"
            r"|Too many parts"
            r"|TOO_MANY_SIMULTANEOUS_QUERIES"
            r"|TIMEOUT_EXCEEDED"
            r"|TOO_MANY_ROWS_OR_BYTES"
            r"|ALL_CONNECTION_TRIES_FAILED"
            r"|AUTHENTICATION_FAILED)"
        ),
        explains=(
            "A ClickHouse query or insert exceeds server limits: big joins or GROUP BY in memory, "
            "many small inserts creating too many parts, or connection and auth failures; batch "
            "inserts, use async inserts, filter by the sorting key, tune settings."
        ),
    ),
    Symptom(
        name="elasticsearch-bootstrap-checks",
        pattern=(
            r"(?-i:vm\.max_map_count"
            r"|bootstrap checks failed"
            r"|bootstrap check failure"
            r"|memory is not locked"
            r"|default discovery settings are unsuitable for production)"
        ),
        explains=(
            "Elasticsearch refuses to start because host settings fail its bootstrap checks: "
            "vm.max_map_count too low, file descriptors, memory lock, discovery config; set "
            "sysctl on the host, ulimits in compose or Kubernetes, and discovery.type=single-node "
            "for development."
        ),
        environment=True,
    ),
    Symptom(
        name="elasticsearch-security-index",
        pattern=(
            r"(?-i:security_exception"
            r"|missing authentication credentials for REST request"
            r"|unable to authenticate user"
            r"|index_not_found_exception"
            r"|resource_already_exists_exception"
            r"|is unauthorized for user)"
        ),
        explains=(
            "The Elasticsearch request lacks credentials or privileges, or targets an index that "
            "does not exist or already exists; use API keys with least-privilege roles, create "
            "indices and templates idempotently, use aliases for index names."
        ),
    ),
    Symptom(
        name="net-go-http-timeout",
        pattern=(
            r"(?-i:TLS handshake timeout"
            r"|request canceled while waiting for connection"
            r"|Client\.Timeout exceeded while awaiting headers"
            r"|i/o timeout)"
        ),
        explains=(
            "A Go-based tool (docker, kubectl, terraform, helm) timed out reaching a registry or "
            "API: network, proxy, firewall, DNS or an overloaded endpoint; configure HTTP_PROXY "
            "and NO_PROXY, retry with backoff, use a registry mirror or cache."
        ),
        environment=True,
    ),
    Symptom(
        name="compose-dependency-unhealthy",
        pattern=(
            r"(?-i:is unhealthy"
            r"|dependency failed to start"
            r"|Error dependency [\w-]+ failed to start)"
        ),
        explains=(
            "A Compose dependency never passed its healthcheck: the service crashed, its "
            "healthcheck command is wrong or too strict, or the start_period is too short; fix "
            "the healthcheck, read the dependency's logs, use depends_on condition "
            "service_healthy."
        ),
    ),
    Symptom(
        name="container-registry-auth",
        pattern=(
            r"(?-i:denied: (?:permission_denied|requested access to the resource is denied)"
            r"|insufficient_scope"
            r"|authorization token has expired"
            r"|name unknown: The repository with name"
            r"|unauthorized: authentication required"
            r"|no basic auth credentials)"
        ),
        explains=(
            "Pushing to or pulling from a container registry was refused: not logged in, an "
            "expired token (ECR), a token without packages write scope, or a repository that does "
            "not exist; log in in the same job, grant packages write permission, create the "
            "repository first."
        ),
        environment=True,
    ),
    Symptom(
        name="docker-buildkit-dockerfile",
        pattern=(
            r"(?-i:requires BuildKit"
            r"|Multi-platform build is not supported for the docker driver"
            r"|dockerfile parse error"
            r"|Dockerfile parse error"
            r"|unknown instruction: "
            r"|failed to read dockerfile"
            r"|invalid reference format)"
        ),
        explains=(
            "The Dockerfile or build invocation is invalid: a typo in an instruction, BuildKit "
            "features without BuildKit, a multi-platform build without a buildx builder, or an "
            "image name with uppercase or empty variables; use docker buildx, lint Dockerfiles "
            "(hadolint), quote variables."
        ),
    ),
    Symptom(
        name="k8s-volume-mount",
        pattern=(
            r"(?-i:FailedMount"
            r"|MountVolume\.SetUp failed"
            r"|Multi-Attach error for volume"
            r"|FailedAttachVolume"
            r"|Unable to attach or mount volumes"
            r"|persistentvolumeclaim \"[^\"\n]{1,80}\" not found"
            r"|PersistentVolumeClaims"
            r"|waiting for first consumer to be created before binding"
            r"|storageclass\.storage\.k8s\.io \"[^\"\n]{1,60}\" not found)"
        ),
        explains=(
            "A Pod cannot mount its volume: the PVC, Secret or ConfigMap is missing, the "
            "StorageClass does not exist, or a ReadWriteOnce volume is attached to another node "
            "during a rollout; create dependencies first, use StatefulSets, Recreate strategy for "
            "RWO volumes."
        ),
    ),
    Symptom(
        name="k8s-pod-startup",
        pattern=(
            r"(?-i:is waiting to start"
            r"|PodInitializing"
            r"|Init:CrashLoopBackOff"
            r"|Init:Error"
            r"|FailedCreatePodSandBox"
            r"|failed to setup network for sandbox"
            r"|NetworkPlugin cni failed"
            r"|failed to assign an IP address to container)"
        ),
        explains=(
            "The Pod's containers have not started: init containers fail, images still pull, "
            "volumes wait, or the CNI cannot create the sandbox network; check events with "
            "kubectl describe, keep init containers idempotent, watch IP exhaustion in the "
            "subnet."
        ),
    ),
    Symptom(
        name="k8s-admission-policy",
        pattern=(
            r"(?-i:failed calling webhook"
            r"|admission webhook \"[^\"\n]{1,100}\" denied the request"
            r"|denied the request: "
            r"|violates PodSecurity"
            r"|would violate PodSecurity"
            r"|validation\.gatekeeper"
            r"|kyverno)"
        ),
        explains=(
            "An admission controller rejected or could not validate the object: a policy (Pod "
            "Security Standards, Gatekeeper, Kyverno) forbids it, or the webhook service is down "
            "or its CA bundle is wrong; run as non-root, drop capabilities, keep webhook "
            "certificates managed by cert-manager."
        ),
    ),
    Symptom(
        name="k8s-resource-quota",
        pattern=(
            r"(?-i:exceeded quota"
            r"|failed quota"
            r"|must specify (?:limits|requests)\."
            r"|maximum (?:cpu|memory) usage per Container)"
        ),
        explains=(
            "The namespace's ResourceQuota or LimitRange rejects the Pod: requests and limits are "
            "missing or the quota is used up; set resources requests and limits on every "
            "container, size quotas per namespace, scale down old ReplicaSets."
        ),
    ),
    Symptom(
        name="k8s-metrics-hpa",
        pattern=(
            r"(?-i:unable to get metrics for resource"
            r"|failed to get cpu utilization"
            r"|failed to get memory utilization"
            r"|missing request for cpu"
            r"|missing request for memory"
            r"|FailedGetResourceMetric"
            r"|Metrics API not available"
            r"|pods\.metrics\.k8s\.io)"
        ),
        explains=(
            "A HorizontalPodAutoscaler cannot read metrics: metrics-server is not installed or "
            "containers lack resource requests; install metrics-server, set CPU and memory "
            "requests on every container, check the scale target reference."
        ),
    ),
    Symptom(
        name="helm-chart-dependencies",
        pattern=(
            r"(?-i:found in Chart\.yaml, but missing in charts/ directory"
            r"|helm dependency build"
            r"|helm dependency update"
            r"|no repository definition for"
            r"|repo \"?[\w-]+\"? not found"
            r"|chart requires kubeVersion"
            r"|chart \"[^\"\n]{1,60}\" (?:version \"[^\"\n]{1,30}\" )?not found in)"
        ),
        explains=(
            "A Helm chart's dependencies or repository are unavailable: subcharts not fetched, a "
            "repository not added, a chart version removed, or kubeVersion not satisfied; run "
            "helm dependency build in CI, commit Chart.lock, pin chart versions."
        ),
    ),
    Symptom(
        name="terraform-provider-bug",
        pattern=(
            r"(?-i:Provider produced inconsistent final plan"
            r"|Provider produced inconsistent result after apply"
            r"|produced an unexpected new value"
            r"|Plugin did not respond"
            r"|plugin encountered an error, and failed to respond"
            r"|This is a bug in the provider)"
        ),
        explains=(
            "The Terraform provider returned inconsistent values or crashed, often with computed "
            "attributes such as tags_all, default_tags, or unknown values; pin and upgrade "
            "provider versions in the lock file, avoid duplicate tags, re-run apply, report "
            "provider bugs."
        ),
    ),
    Symptom(
        name="terraform-version-state",
        pattern=(
            r"(?-i:Saved plan is stale"
            r"|which is newer than current"
            r"|state snapshot was created by Terraform v"
            r"|Unsupported Terraform Core version"
            r"|does not support Terraform version"
            r"|Resource instance managed by newer provider version)"
        ),
        explains=(
            "The Terraform binary, provider or saved plan does not match the state: a newer "
            "version wrote the state, or the state changed after planning; pin required_version "
            "and providers, use the same version in CI and locally (tfenv), apply plans promptly."
        ),
    ),
    Symptom(
        name="cloud-quota-exceeded",
        pattern=(
            r"(?-i:InstanceLimitExceeded"
            r"|VcpuLimitExceeded"
            r"|QuotaExceeded"
            r"|QUOTA_EXCEEDED"
            r"|Quota '[^'\n]{1,80}' exceeded"
            r"|SkuNotAvailable"
            r"|ZONE_RESOURCE_POOL_EXHAUSTED"
            r"|InsufficientInstanceCapacity"
            r"|You have requested more instances"
            r"|exceeds (?:the )?(?:approved|current) [^\n]{0,40}quota)"
        ),
        explains=(
            "The cloud account hit a service quota or the region lacks capacity for the instance "
            "type or SKU; request a quota increase, choose another zone, region or size, clean up "
            "unused resources, and check quotas before provisioning in infrastructure as code."
        ),
        environment=True,
    ),
    Symptom(
        name="gcp-api-disabled",
        pattern=(
            r"(?-i:has not been used in project"
            r"|SERVICE_DISABLED"
            r"|it is disabled\. Enable it by visiting"
            r"|API has not been enabled"
            r"|BILLING_DISABLED"
            r"|requires billing to be enabled)"
        ),
        explains=(
            "A Google Cloud API is not enabled on the project or billing is disabled; enable the "
            "required APIs as code (google_project_service, gcloud services enable), check the "
            "active project, attach a billing account."
        ),
        environment=True,
    ),
    Symptom(
        name="pulumi-locked-pending",
        pattern=(
            r"(?-i:Another update is currently in progress"
            r"|the stack is currently locked by"
            r"|pulumi cancel"
            r"|resource\(s\) with pending operations"
            r"|pending operations)"
        ),
        explains=(
            "A Pulumi stack is locked by a concurrent or interrupted update, or has resources in "
            "pending operations after a crash; serialise deployments per stack in CI (concurrency "
            "groups), run pulumi cancel, refresh or stack export/import to repair state."
        ),
        environment=True,
    ),
    Symptom(
        name="aws-region-endpoint",
        pattern=(
            r"(?-i:\(ResourceNotFoundException\)"
            r"|\(NoSuchEntity\)"
            r"|\(InvalidAMIID\.NotFound\)"
            r"|You must specify a region"
            r"|NoRegionError"
            r"|Could not connect to the endpoint URL"
            r"|AuthorizationHeaderMalformed"
            r"|the region '[\w-]+' is wrong"
            r"|PermanentRedirect)"
        ),
        explains=(
            "The AWS call targets the wrong region, account or endpoint, or no region is "
            "configured: resources are regional and the profile or AWS_REGION differs; set region "
            "explicitly per profile and in infrastructure as code, pass resource ARNs."
        ),
    ),
    Symptom(
        name="paas-container-port-binding",
        pattern=(
            r"(?-i:failed to start and listen on the port"
            r"|provided by the PORT="
            r"|is not ready and cannot serve traffic"
            r"|Web process failed to bind to \$PORT"
            r"|Error R10"
            r"|Error R14"
            r"|H10 App crashed"
            r"|did not listen on the expected port"
            r"|Application failed to respond)"
        ),
        explains=(
            "The deployed container does not listen on the port the platform provides (Cloud Run, "
            "Heroku, App Service), crashes on start, or binds to localhost; read PORT from the "
            "environment, bind 0.0.0.0, keep startup fast, check startup logs and memory limits."
        ),
    ),
    Symptom(
        name="git-https-token-denied",
        pattern=(
            r"(?-i:Permission to [\w./-]+ denied to"
            r"|The requested URL returned error: 40[13]"
            r"|Write access to repository not granted"
            r"|Invalid username or password"
            r"|Support for password authentication was removed"
            r"|HTTP Basic: Access denied"
            r"|You are not allowed to push code to this project"
            r"|Authentication failed for 'https)"
        ),
        explains=(
            "Git over HTTPS was refused: a password instead of a personal access token, an "
            "expired token, a token without write scope, or a CI token limited to read; use "
            "fine-grained tokens or deploy keys, grant contents write permission, a credential "
            "helper."
        ),
        environment=True,
    ),
    Symptom(
        name="jenkins-pipeline-groovy",
        pattern=(
            r"(?-i:No such DSL method"
            r"|RejectedAccessException"
            r"|Scripts not permitted to use"
            r"|WorkflowScript: \d+"
            r"|MissingPropertyException: No such property"
            r"|groovy\.lang\.MissingMethodException"
            r"|CredentialNotFoundException"
            r"|Could not find credentials entry with ID)"
        ),
        explains=(
            "A Jenkins pipeline fails in Groovy: a step from a plugin that is not installed, a "
            "method blocked by the script security sandbox, an undefined variable, or a missing "
            "credentials id; use declarative pipelines, shared libraries, approved methods, and "
            "credentials bindings."
        ),
    ),
    Symptom(
        name="git-upstream-tracking",
        pattern=(
            r"(?-i:has no upstream branch"
            r"|how to reconcile divergent branches"
            r"|You have divergent branches"
            r"|There is no tracking information for the current branch"
            r"|Not possible to fast-forward)"
        ),
        explains=(
            "The local branch has no upstream or has diverged from it; push with --set-upstream, "
            "choose pull.rebase or pull.ff only in git config, rebase feature branches on the "
            "main branch, avoid rewriting shared history."
        ),
    ),
    Symptom(
        name="git-submodule",
        pattern=(
            r"(?-i:No url found for submodule path"
            r"|No submodule mapping found in \.gitmodules"
            r"|into submodule path [^\n]{1,100} failed"
            r"|but it did not contain"
            r"|upload-pack: not our ref"
            r"|Unable to checkout '[^'\n]{1,80}' in submodule path)"
        ),
        explains=(
            "A git submodule is misconfigured or points to a commit that was never pushed or is "
            "unreachable; keep .gitmodules in sync, push submodule commits before the parent, "
            "clone with --recurse-submodules and grant CI access to submodule repositories."
        ),
    ),
    Symptom(
        name="git-history-operation-state",
        pattern=(
            r"(?-i:is a merge but no -m option was given"
            r"|The previous cherry-pick is now empty"
            r"|cherry-pick is already in progress"
            r"|You are in the middle of an am session"
            r"|rebase-merge directory"
            r"|interactive rebase already started)"
        ),
        explains=(
            "A cherry-pick, revert or rebase is in progress or used on a merge commit; finish or "
            "abort the operation (--continue, --abort), pass -m for merge commits, prefer small "
            "linear commits and squash merges for easier backports."
        ),
    ),
    Symptom(
        name="git-shallow-clone",
        pattern=(
            r"(?-i:shallow update not allowed"
            r"|--unshallow"
            r"|is a shallow repository"
            r"|no merge base"
            r"|fatal: bad revision)"
        ),
        explains=(
            "A shallow clone lacks the history an operation needs (merge base, tags, diff against "
            "main, version from git describe); fetch with fetch-depth: 0 or deepen, fetch the "
            "base branch explicitly in CI."
        ),
    ),
    Symptom(
        name="ssh-key-agent",
        pattern=(
            r"(?-i:sign_and_send_pubkey: signing failed"
            r"|agent refused operation"
            r"|Could not open a connection to your authentication agent"
            r"|Error connecting to agent"
            r"|no mutual signature algorithm"
            r"|Connection closed by [^\n]{1,60} port 22"
            r"|Connection timed out during banner exchange"
            r"|Load key \"[^\"\n]{1,80}\": (?:invalid format|error in libcrypto))"
        ),
        explains=(
            "SSH authentication fails before login: the agent is not running or refuses the key, "
            "the key file is malformed or has Windows line endings, or the server rejects the old "
            "RSA algorithm; use ed25519 keys, ssh-add, correct key file format."
        ),
        environment=True,
    ),
    Symptom(
        name="shell-bsd-gnu-flags",
        pattern=(
            r"(?-i:may not be used with stdin"
            r"|invalid command code"
            r"|extra characters after command"
            r"|illegal option -- "
            r"|grep: invalid option -- '?P"
            r"|unrecognized option '--)"
        ),
        explains=(
            "A script assumes GNU tools while running on macOS/BSD or busybox (sed -i, date -d, "
            "readlink -f, grep -P), or the reverse; write portable POSIX shell, install GNU "
            "coreutils, run scripts in the same container as CI."
        ),
    ),
    Symptom(
        name="shell-arg-list-too-long",
        pattern=(
            r"(?-i:Argument list too long"
            r"|E2BIG)"
        ),
        explains=(
            "A command received more arguments than the kernel allows, usually from a glob over "
            "many files; use find -exec ... + or xargs, process files in batches, pass file lists "
            "through stdin or a file."
        ),
    ),
    Symptom(
        name="fs-read-only",
        pattern=(
            r"(?-i:Read-only file system"
            r"|read-only file system"
            r"|EROFS)"
        ),
        explains=(
            "A write went to a read-only mount: a container with readOnlyRootFilesystem, a "
            "read-only volume, a remounted disk after errors, or a sandboxed path; write to a "
            "mounted writable volume or tmpfs, configure cache and temp directories, check disk "
            "health."
        ),
        environment=True,
    ),
    Symptom(
        name="archive-corrupt-download",
        pattern=(
            r"(?-i:not in gzip format"
            r"|End-of-central-directory signature not found"
            r"|This does not look like a tar archive"
            r"|Unexpected EOF in archive"
            r"|Error is not recoverable: exiting now"
            r"|Skipping to next header"
            r"|invalid compressed data"
            r"|File format not recognized)"
        ),
        explains=(
            "The archive is truncated, of another format, or an HTML error page saved by curl "
            "without -f; download with curl -fL, verify checksums, check the URL and release "
            "asset name, and retry interrupted downloads."
        ),
    ),
    Symptom(
        name="dns-resolver-failure",
        pattern=(
            r"(?-i:no servers could be reached"
            r"|communications error to [\d.]+#53"
            r"|SERVFAIL"
            r"|Temporary failure in name resolution"
            r"|server can't find [^\n]{1,80}: REFUSED)"
        ),
        explains=(
            "The DNS resolver is unreachable or failing (systemd-resolved stub, corporate VPN, "
            "container DNS, missing search domain), not the name itself; check /etc/resolv.conf, "
            "the container network's DNS, configure a reachable resolver, retry."
        ),
        environment=True,
    ),
    Symptom(
        name="tls-hostname-mismatch",
        pattern=(
            r"(?-i:no alternative certificate subject name matches"
            r"|certificate is valid for [^\n]{1,120}, not"
            r"|Hostname mismatch"
            r"|hostname mismatch"
            r"|doesn't match any of the subject alternative names"
            r"|does not match any of the subject alternative names"
            r"|certificate is not valid for any names"
            r"|ERR_CERT_COMMON_NAME_INVALID"
            r"|IP address mismatch)"
        ),
        explains=(
            "The server's certificate does not cover the hostname used: connecting by IP or "
            "internal name, a wrong SNI, or a certificate issued without the SAN; issue "
            "certificates with all subject alternative names, connect by the certified name, "
            "never disable verification."
        ),
    ),
    Symptom(
        name="acme-certificate-challenge",
        pattern=(
            r"(?-i:Certbot failed to authenticate some domains"
            r"|Challenge failed for domain"
            r"|urn:ietf:params:acme:error"
            r"|too many certificates already issued"
            r"|too many failed authorizations"
            r"|likely firewall problem"
            r"|acme-challenge[^\n]{0,80}(?:404|Invalid response)"
            r"|DNS problem: NXDOMAIN looking up)"
        ),
        explains=(
            "Let's Encrypt could not validate the domain: DNS does not point at the server, port "
            "80 is blocked, the proxy does not serve /.well-known/acme-challenge, or rate limits "
            "were hit; test on staging, use DNS-01 behind firewalls, automate renewal."
        ),
        environment=True,
    ),
    Symptom(
        name="http-empty-reply-closed",
        pattern=(
            r"(?-i:Empty reply from server"
            r"|curl: \(52\)"
            r"|RemoteDisconnected"
            r"|Remote end closed connection without response"
            r"|upstream prematurely closed connection"
            r"|EOF occurred in violation of protocol)"
        ),
        explains=(
            "The server closed the connection without a response: the process crashed or was "
            "killed mid-request, a worker timeout, plain HTTP sent to a TLS port, or keep-alive "
            "mismatch with a proxy; check server logs, timeouts, health, graceful shutdown."
        ),
    ),
    Symptom(
        name="net-privileged-port",
        pattern=(
            r"(?-i:failed \(13: Permission denied\)"
            r"|bind: permission denied"
            r"|listen EACCES"
            r"|privileged port)"
        ),
        explains=(
            "A non-root process tried to bind a port below 1024; run the service on a high port "
            "behind a reverse proxy or load balancer, grant CAP_NET_BIND_SERVICE, or map ports in "
            "the container runtime instead of running as root."
        ),
    ),
    Symptom(
        name="http-redirect-loop",
        pattern=(
            r"(?-i:ERR_TOO_MANY_REDIRECTS"
            r"|too many redirects"
            r"|Too many redirects"
            r"|TooManyRedirects"
            r"|redirects followed"
            r"|redirected you too many times"
            r"|Exceeded \d+ redirects)"
        ),
        explains=(
            "A redirect loop: the app redirects to HTTPS while a TLS-terminating proxy forwards "
            "plain HTTP, or auth and canonical-host rules redirect to each other; trust "
            "X-Forwarded-Proto from the proxy, configure one canonical URL, test redirects."
        ),
    ),
    Symptom(
        name="tls-certificate-key-load",
        pattern=(
            r"(?-i:cannot load certificate"
            r"|key values mismatch"
            r"|SSL_CTX_use_PrivateKey"
            r"|PEM_read_bio"
            r"|no \"ssl_certificate\" is defined"
            r"|unable to load server certificate"
            r"|bad end line"
            r"|unable to load private key)"
        ),
        explains=(
            "The server cannot load its TLS certificate or key: wrong path, permissions, a key "
            "that does not match the certificate, a missing intermediate chain, or PEM "
            "formatting; deploy fullchain and key together, automate renewal, validate with "
            "openssl before reload."
        ),
    ),
    Symptom(
        name="zephyr-devicetree-kconfig",
        pattern=(
            r"(?-i:devicetree error"
            r"|undefined node label"
            r"|DT_N_\w+"
            r"|__device_dts_ord_"
            r"|was assigned the value [^\n]{1,60} but got the value"
            r"|Aborting due to Kconfig warnings"
            r"|No board named"
            r"|Invalid BOARD)"
        ),
        explains=(
            "A Zephyr build fails on devicetree or Kconfig: an overlay references a node label "
            "the board lacks, a device is not status okay, or a CONFIG option has unmet "
            "dependencies; check the board's DTS, enable nodes in overlays, satisfy Kconfig "
            "depends on."
        ),
    ),
    Symptom(
        name="embedded-debug-probe",
        pattern=(
            r"(?-i:LIBUSB_ERROR_\w+"
            r"|libusb_open\(\) failed"
            r"|no debugger connected"
            r"|There is no debugger connected"
            r"|Could not connect to target"
            r"|Cannot connect to target"
            r"|unable to connect to the target"
            r"|init mode failed"
            r"|No J-Link"
            r"|Target voltage may be too low"
            r"|Error connecting DP"
            r"|No ST-LINK detected"
            r"|No probe was found)"
        ),
        explains=(
            "The debug probe (ST-LINK, J-Link, CMSIS-DAP) is missing, lacks USB permissions, or "
            "cannot reach the target (power, wiring, reset, low-power mode); install udev rules, "
            "connect under reset, check SWD wiring and target voltage."
        ),
        environment=True,
    ),
    Symptom(
        name="esp-boot-flash-partition",
        pattern=(
            r"(?-i:Brownout detector was triggered"
            r"|TG1WDT_SYS_RESET"
            r"|RTCWDT_RTC_RESET"
            r"|app partition is too small for binary"
            r"|Failed to verify partition table"
            r"|partition table too big"
            r"|does not fit in configured flash size"
            r"|Detected size\([^\n]{0,20}\) smaller than the size in the binary image header)"
        ),
        explains=(
            "The ESP32 reset or failed to boot: brownout from a weak power supply or USB port, a "
            "watchdog reset, or a firmware bigger than its partition or flash; use a stable "
            "supply, custom partitions.csv, matching flash size, and optimise binary size."
        ),
    ),
    Symptom(
        name="ros2-dds-launch",
        pattern=(
            r"(?-i:Failed to find a free participant index"
            r"|RTPS_TRANSPORT_SHM"
            r"|process has died \[pid"
            r"|Could not find requested type support"
            r"|failed to get type support"
            r"|Cannot locate rosdep definition for"
            r"|could not have their rosdep keys resolved)"
        ),
        explains=(
            "A ROS 2 node died (segfault exit -11, uncaught exception), DDS discovery or shared "
            "memory transport failed, message type support is missing, or rosdep keys are "
            "unknown; source the workspace, rebuild interfaces, declare dependencies in "
            "package.xml, set ROS_DOMAIN_ID."
        ),
    ),
    Symptom(
        name="solidity-declaration-parser",
        pattern=(
            r"(?-i:Undeclared identifier"
            r"|Identifier not found or not unique"
            r"|ParserError"
            r"|Expected ';' but got"
            r"|Expected pragma, import directive"
            r"|Error \(\d{4}\))"
        ),
        explains=(
            "The Solidity compiler cannot parse or resolve a name: a typo, a missing import or "
            "inheritance, syntax from another compiler version, or a remapping that points "
            "elsewhere; pin the pragma version, import explicitly with named imports, configure "
            "remappings."
        ),
    ),
    Symptom(
        name="solidity-static-analysis",
        pattern=(
            r"(?-i:Reentrancy in "
            r"|Detector-Documentation"
            r"|unchecked-transfer"
            r"|arbitrary-send)"
        ),
        explains=(
            "Slither or solhint flagged a vulnerability pattern: reentrancy, unchecked ERC20 "
            "transfer returns, tx.origin auth, arbitrary ETH sends, uninitialised storage; follow "
            "checks-effects-interactions, use ReentrancyGuard and SafeERC20, access control "
            "modifiers."
        ),
    ),
    Symptom(
        name="ethers-v6-migration",
        pattern=(
            r"(?-i:ethers\.utils"
            r"|ethers\.providers\."
            r"|deployed is not a function"
            r"|BigNumber\.from"
            r"|reading '(?:parseEther|parseUnits|formatEther|JsonRpcProvider|Web3Provider)')"
        ),
        explains=(
            "Code written for ethers v5 runs with ethers v6 (or the reverse): utils, providers, "
            "BigNumber and deployed() were renamed to top-level functions, bigint and "
            "waitForDeployment(); pin the ethers version, follow the v6 migration guide, keep "
            "hardhat plugins matched."
        ),
    ),
    Symptom(
        name="foundry-script-broadcast",
        pattern=(
            r"(?-i:environment variable \"\w+\" not found"
            r"|Failed to get EIP-1559 fees"
            r"|EIP-1559 not activated"
            r"|No associated wallet for addresses"
            r"|using Foundry's default sender)"
        ),
        explains=(
            "A Foundry script lacks its environment (PRIVATE_KEY, RPC URL in .env), a sender "
            "wallet, or targets a chain without EIP-1559; load .env, pass --private-key or an "
            "account, use --legacy on such chains, never commit private keys."
        ),
    ),
    Symptom(
        name="solana-insufficient-funds",
        pattern=(
            r"(?-i:insufficient funds for spend"
            r"|insufficient funds for fee"
            r"|Insufficient funds for fee"
            r"|InsufficientFundsForRent"
            r"|insufficient funds for rent"
            r"|airdrop request failed"
            r"|Airdrop request failed"
            r"|airdrop limit)"
        ),
        explains=(
            "The Solana payer wallet lacks SOL for fees, rent-exempt balances or program "
            "deployment, or the devnet airdrop is rate-limited; fund the keypair, check the "
            "cluster and wallet in solana config, use a local validator for tests."
        ),
        environment=True,
    ),
    Symptom(
        name="solana-sbf-limits",
        pattern=(
            r"(?-i:exceeded max offset of"
            r"|Access violation in stack frame"
            r"|Access violation in heap section"
            r"|memory allocation failed, out of memory"
            r"|max instruction trace length exceeded"
            r"|Transaction too large)"
        ),
        explains=(
            "A Solana program exceeds SBF limits: 4KB stack frames from large structs, the 32KB "
            "heap, or the transaction size; Box large accounts, use zero_copy accounts, avoid "
            "large local arrays, split instructions and use address lookup tables."
        ),
    ),
    Symptom(
        name="solana-program-deploy",
        pattern=(
            r"(?-i:Deploying program failed"
            r"|Program id mismatch"
            r"|IncorrectProgramId"
            r"|does not match the actual program id"
            r"|solana program extend"
            r"|is not an upgradeable program"
            r"|upgrade authority)"
        ),
        explains=(
            "Deploying or calling a Solana program fails: the declare_id! does not match the "
            "deployed keypair, the program account is too small for the new binary, or the "
            "upgrade authority differs; sync keys with anchor keys sync, extend the program, "
            "manage the authority."
        ),
    ),
    Symptom(
        name="r-model-data",
        pattern=(
            r"(?-i:variable lengths differ"
            r"|non-conformable arguments"
            r"|contrasts can be applied only to factors with 2 or more levels"
            r"|undefined columns selected"
            r"|NA/NaN/Inf in '[xy]'"
            r"|0 \(non-NA\) cases"
            r"|system is computationally singular"
            r"|NAs introduced by coercion)"
        ),
        explains=(
            "R model or data frame inputs are inconsistent: columns of different lengths, missing "
            "values, single-level factors, wrong column names or collinear predictors; clean and "
            "validate data first, handle NA explicitly, check factor levels and dimensions."
        ),
    ),
    Symptom(
        name="r-memory-limit",
        pattern=(
            r"(?-i:cannot allocate vector of size"
            r"|vector memory exhausted"
            r"|protection stack overflow"
            r"|is too close to the limit"
            r"|evaluation nested too deeply)"
        ),
        explains=(
            "R ran out of memory or stack: a huge object copy, infinite recursion, or a vector "
            "grown in a loop; preallocate, use data.table or arrow for large data, process in "
            "chunks, avoid deep recursion."
        ),
    ),
    Symptom(
        name="r-package-system-deps",
        pattern=(
            r"(?-i:Configuration failed because [\w.+-]+ was not found"
            r"|configuration failed for package"
            r"|was not found in the pkg-config search path"
            r"|compilation failed for package"
            r"|deb: lib[\w-]+-dev)"
        ),
        explains=(
            "An R package compiles from source and the system library (libxml2, libcurl, openssl, "
            "gdal) or compiler is missing; install the -dev system packages, use binary "
            "repositories (Posit Package Manager), pin versions with renv."
        ),
        environment=True,
    ),
    Symptom(
        name="julia-package-env",
        pattern=(
            r"(?-i:Package \w+ not found in current path"
            r"|ArgumentError: Package \w+ not found"
            r"|failed to precompile"
            r"|direct dependenc(?:y|ies) failed to precompile"
            r"|Unsatisfiable requirements detected for package"
            r"|expected package `\w+ \[)"
        ),
        explains=(
            "A Julia package is not in the active project environment or fails to precompile "
            "after incompatible upgrades; activate the project (--project), declare dependencies "
            "in Project.toml, commit Manifest.toml, run Pkg.instantiate and set compat bounds."
        ),
    ),
    Symptom(
        name="julia-method-dispatch",
        pattern=(
            r"(?-i:MethodError: no method matching"
            r"|MethodError: Cannot `convert` an object of type"
            r"|running in world age"
            r"|is ambiguous\. Candidates"
            r"|Closest candidates are)"
        ),
        explains=(
            "No Julia method matches the argument types: a String where a number is expected, Int "
            "vs Float64, a missing method for a custom type, or world age after eval; annotate "
            "and convert types explicitly, write generic methods, avoid eval in functions."
        ),
    ),
    Symptom(
        name="julia-runtime-errors",
        pattern=(
            r"(?-i:BoundsError: attempt to access"
            r"|UndefVarError: "
            r"|DimensionMismatch"
            r"|InexactError: "
            r"|DomainError with"
            r"|UndefRefError: access to undefined reference"
            r"|TaskFailedException)"
        ),
        explains=(
            "A Julia runtime error: out-of-bounds indexing, an undefined variable from scope "
            "rules in loops (global vs local), mismatched array dimensions, or a lossy "
            "conversion; use eachindex, wrap code in functions, check sizes, convert types "
            "deliberately."
        ),
    ),
    Symptom(
        name="matlab-dimension-index",
        pattern=(
            r"(?-i:Incorrect dimensions for matrix multiplication"
            r"|Arrays have incompatible sizes for this operation"
            r"|Matrix dimensions must agree"
            r"|Index exceeds the number of array elements"
            r"|exceeds array bounds"
            r"|Array indices must be positive integers or logical values"
            r"|Unable to perform assignment because"
            r"|Dimensions of arrays being concatenated are not consistent"
            r"|Index exceeds matrix dimensions)"
        ),
        explains=(
            "MATLAB array sizes or indices do not match: matrix * where elementwise .* was meant, "
            "row vs column vectors, 0-based indexing, or growing arrays inconsistently; "
            "preallocate, check size(), use elementwise operators and validate inputs with "
            "arguments blocks."
        ),
    ),
    Symptom(
        name="matlab-undefined-path",
        pattern=(
            r"(?-i:Unrecognized function or variable"
            r"|Undefined function '[^'\n]{1,60}' for input arguments of type"
            r"|Undefined function or variable"
            r"|not found in the current folder or on the MATLAB path"
            r"|Unrecognized field name"
            r"|Too many input arguments"
            r"|Not enough input arguments)"
        ),
        explains=(
            "A MATLAB function or variable is not found or called with the wrong arguments: the "
            "file is not on the path, a toolbox is missing, a name is misspelled or shadowed; use "
            "addpath or project paths, check toolbox licenses, define function signatures with "
            "arguments blocks."
        ),
    ),
    Symptom(
        name="license-server-checkout",
        pattern=(
            r"(?-i:License checkout failed"
            r"|License Manager Error"
            r"|Licensed number of users already reached"
            r"|Unable to check out a license"
            r"|unable to find a license"
            r"|No valid Unity Editor license"
            r"|No ULF license found"
            r"|FlexNet"
            r"|FLEXlm)"
        ),
        explains=(
            "A commercial tool (MATLAB, Unity, compilers) cannot obtain a license: the license "
            "server is unreachable, seats are exhausted, or the CI machine is not activated; "
            "activate licenses in CI with secrets, check the license server, VPN and firewall."
        ),
        environment=True,
    ),
    Symptom(
        name="numpy-linalg-conditioning",
        pattern=(
            r"(?-i:LinAlgError"
            r"|Singular matrix"
            r"|SVD did not converge"
            r"|not positive definite"
            r"|Eigenvalues did not converge"
            r"|must not contain infs or NaNs"
            r"|Ill-conditioned matrix"
            r"|LinAlgWarning)"
        ),
        explains=(
            "A linear algebra routine got a singular, ill-conditioned or NaN-containing matrix: "
            "collinear features, too few samples, unscaled data; validate inputs for NaN and inf, "
            "use lstsq or pinv, add regularisation, standardise features."
        ),
    ),
    Symptom(
        name="scipy-optimize-convergence",
        pattern=(
            r"(?-i:Optimal parameters not found"
            r"|Covariance of the parameters could not be estimated"
            r"|ConvergenceWarning"
            r"|Desired error not necessarily achieved"
            r"|did not converge"
            r"|failed to converge"
            r"|Maximum number of iterations has been exceeded"
            r"|not making good progress)"
        ),
        explains=(
            "A numerical solver or fit did not converge: a poor initial guess, badly scaled "
            "parameters, a stiff ODE, or a model that does not fit the data; provide p0 and "
            "bounds, scale variables, use a stiff solver, raise max iterations, check the model."
        ),
    ),
    Symptom(
        name="numpy-ufunc-casting",
        pattern=(
            r"(?-i:UFuncTypeError"
            r"|Cannot cast ufunc"
            r"|casting rule 'same_kind'"
            r"|ufunc '\w+' not supported for the input types"
            r"|did not contain a loop with signature"
            r"|setting an array element with a sequence"
            r"|Cannot cast array data from dtype)"
        ),
        explains=(
            "A NumPy operation mixes incompatible dtypes or ragged data: an in-place float result "
            "into an int array, object arrays from mixed types, or nested lists of unequal "
            "length; set dtypes explicitly, use astype, avoid in-place ops across types, validate "
            "shapes."
        ),
    ),
    Symptom(
        name="cuda-kernel-launch",
        pattern=(
            r"(?-i:cudaError(?:IllegalAddress|LaunchOutOfResources|InvalidConfiguration|LaunchFailure|MisalignedAddress|InvalidDeviceFunction)"
            r"|too many resources requested for launch"
            r"|invalid (?:configuration argument|device function)"
            r"|unspecified launch failure"
            r"|misaligned address"
            r"|CUDA_ERROR_\w+)"
        ),
        explains=(
            "A CUDA kernel faulted or could not launch: out-of-bounds indexing without a bounds "
            "check on thread index, block size or shared memory beyond device limits, or "
            "registers exhausted; check every CUDA call's error, guard indices, run "
            "compute-sanitizer."
        ),
    ),
    Symptom(
        name="cuda-toolkit-arch",
        pattern=(
            r"(?-i:Unsupported gpu architecture"
            r"|nvcc fatal"
            r"|unsupported GNU version"
            r"|cudaErrorInsufficientDriver"
            r"|cudaErrorNoDevice"
            r"|CUDA_HOME environment variable is not set"
            r"|Cannot find CUDA installation"
            r"|Driver/library version mismatch)"
        ),
        explains=(
            "The CUDA toolkit, driver, host compiler and GPU architecture do not match: nvcc too "
            "old for the arch, gcc too new, or driver and library versions differ after an "
            "update; pin CUDA versions in the container, set CUDA_ARCHITECTURES, reboot after "
            "driver upgrades."
        ),
        environment=True,
    ),
    Symptom(
        name="unity-object-reference",
        pattern=(
            r"(?-i:MissingReferenceException"
            r"|UnassignedReferenceException"
            r"|has been destroyed but you are still trying to access it"
            r"|has not been assigned"
            r"|The referenced script (?:\(Unknown\) )?on this Behaviour"
            r"|MissingComponentException"
            r"|There is no '\w+' attached to the)"
        ),
        explains=(
            "A Unity object reference is missing: a serialized field not assigned in the "
            "inspector, an object destroyed while still referenced, or GetComponent on a missing "
            "component; assign references, use RequireComponent, null-check destroyed objects, "
            "unsubscribe events in OnDestroy."
        ),
    ),
    Symptom(
        name="unity-lifecycle-api",
        pattern=(
            r"(?-i:is not allowed to be called (?:from a MonoBehaviour constructor|during serialization)"  # noqa: E501
            r"|can only be called from the main thread"
            r"|using the 'new' keyword"
            r"|Can't add script behaviour"
            r"|needs to derive from MonoBehaviour"
            r"|Coroutine couldn't be started)"
        ),
        explains=(
            "The Unity API is used at the wrong time or place: in constructors, from background "
            "threads, with new on MonoBehaviour, or on inactive objects; initialise in Awake and "
            "Start, marshal work to the main thread, use AddComponent and Instantiate."
        ),
    ),
    Symptom(
        name="unity-packages-assemblies",
        pattern=(
            r"(?-i:An error occurred while resolving packages"
            r"|Project has invalid dependencies"
            r"|Multiple precompiled assemblies with the same name"
            r"|reference to non-existent assembly"
            r"|Library/PackageCache"
            r"|All compiler errors have to be fixed"
            r"|Scripts have compiler errors"
            r"|scripts had compiler errors)"
        ),
        explains=(
            "Unity packages or assembly definitions conflict: incompatible package versions for "
            "the editor, duplicate DLLs, asmdef references missing, or compile errors blocking "
            "play mode; pin versions in manifest.json and packages-lock.json, keep asmdef "
            "references explicit."
        ),
    ),
    Symptom(
        name="unreal-build-tool",
        pattern=(
            r"(?-i:UnrealHeaderTool failed"
            r"|Unable to find plugin"
            r"|Unable to build while Live Coding is active"
            r"|Missing '\*' in Expected a pointer type"
            r"|type must be a UCLASS"
            r"|\.generated\.h must be the last include"
            r"|could not be compiled\. Try rebuilding from source manually"
            r"|modules are missing or built with a different engine version)"
        ),
        explains=(
            "The Unreal build failed in UnrealBuildTool or UnrealHeaderTool: reflection macros "
            "(UCLASS, UPROPERTY) misused, generated.h not last, a plugin missing or built for "
            "another engine version; regenerate project files, rebuild modules, declare "
            "dependencies in Build.cs."
        ),
    ),
    Symptom(
        name="unreal-runtime-crash",
        pattern=(
            r"(?-i:EXCEPTION_ACCESS_VIOLATION"
            r"|Access violation - code"
            r"|Assertion failed: IsValid"
            r"|Ensure condition failed"
            r"|LowLevelFatalError"
            r"|PendingKill"
            r"|IsPendingKill)"
        ),
        explains=(
            "An Unreal crash from a null or dangling UObject pointer: an object garbage collected "
            "because it was not held by a UPROPERTY, destroyed actors still referenced, or a "
            "failed check; use UPROPERTY or TWeakObjectPtr, check IsValid before use."
        ),
    ),
    Symptom(
        name="godot-null-instance",
        pattern=(
            r"(?-i:on base: 'null instance'"
            r"|on a null instance"
            r"|in base 'null instance'"
            r"|Node not found: "
            r"|on a null value"
            r"|on a base object of type 'Nil'"
            r"|on a base object of type 'null instance'"
            r"|previously freed)"
        ),
        explains=(
            "A Godot node or object is null or freed: a wrong get_node path after renaming the "
            "scene tree, access before _ready, or use after queue_free; use @onready and unique "
            "scene names (%Node), check is_instance_valid, connect signals instead of hard paths."
        ),
    ),
    Symptom(
        name="godot-gdscript-api",
        pattern=(
            r"(?-i:Parse Error: "
            r"|not declared in the current scope"
            r"|Nonexistent function '[^'\n]{1,60}' in base"
            r"|Invalid call\. Nonexistent function"
            r"|Could not find type \""
            r"|Too few arguments for \""
            r"|Cannot infer the type of"
            r"|signature doesn't match the parent"
            r"|Invalid get index '[^'\n]{1,60}' \(on base: '(?!null))"
        ),
        explains=(
            "GDScript uses a name, method or signature that does not exist, often Godot 3 API in "
            "Godot 4 (KinematicBody, move_and_slide arguments, export syntax); follow the "
            "migration guide, use static typing in GDScript to catch errors early."
        ),
    ),
    Symptom(
        name="apt-dpkg-lock",
        pattern=(
            r"(?-i:Could not get lock /var/lib/dpkg"
            r"|Unable to acquire the dpkg frontend lock"
            r"|Could not get lock /var/lib/apt"
            r"|dpkg was interrupted, you must manually run"
            r"|Sub-process /usr/bin/dpkg returned an error code"
            r"|dpkg: error processing package)"
        ),
        explains=(
            "Another apt or dpkg process (unattended-upgrades, cloud-init) holds the lock, or an "
            "earlier install was interrupted; wait for the lock, run dpkg --configure -a, avoid "
            "parallel package installs, bake packages into images."
        ),
        environment=True,
    ),
    Symptom(
        name="linux-package-repository",
        pattern=(
            r"(?-i:Release file"
            r"|NO_PUBKEY"
            r"|Unable to locate package"
            r"|has no installation candidate"
            r"|Hash Sum mismatch"
            r"|you have held broken packages"
            r"|unable to select packages"
            r"|No match for argument"
            r"|Unable to find a match)"
        ),
        explains=(
            "The system package manager cannot find or verify a package: a stale index without "
            "apt-get update, an end-of-life release, a repository key missing, a wrong "
            "distribution name, or a clock skew; update and install in one layer, pin base "
            "images, add signed-by keys."
        ),
        environment=True,
    ),
    Symptom(
        name="cpu-illegal-instruction",
        pattern=(
            r"(?-i:Illegal instruction"
            r"|illegal hardware instruction"
            r"|SIGILL)"
        ),
        explains=(
            "The binary uses CPU instructions the machine lacks: built with -march=native or AVX "
            "on another CPU, or an x86 binary under emulation on ARM; build for a portable "
            "baseline architecture, match the platform, avoid native flags in distributed builds."
        ),
        environment=True,
    ),
    Symptom(
        name="linux-bus-error-shm",
        pattern=(
            r"(?-i:Bus error"
            r"|SIGBUS)"
        ),
        explains=(
            "A SIGBUS: shared memory exhausted (Docker's 64MB /dev/shm with DataLoader workers or "
            "Postgres), a memory-mapped file truncated while mapped, or misaligned access on ARM; "
            "raise --shm-size or mount a tmpfs, avoid truncating mmapped files."
        ),
        environment=True,
    ),
    Symptom(
        name="arith-divide-by-zero",
        pattern=(
            r"(?-i:Floating point exception"
            r"|SIGFPE"
            r"|integer divide by zero"
            r"|attempt to divide by zero"
            r"|attempt to calculate the remainder with a divisor of zero"
            r"|ArithmeticException: / by zero)"
        ),
        explains=(
            "Integer division or modulo by zero, often from an empty collection, an unvalidated "
            "input or a zero count; validate divisors and inputs, handle the empty case "
            "explicitly, use checked arithmetic (checked_div) in Rust and guards in other "
            "languages."
        ),
    ),
    Symptom(
        name="cpp-lifetime-thread-abort",
        pattern=(
            r"(?-i:pure virtual (?:method called|function call)"
            r"|Resource deadlock avoided"
            r"|Enable multithreading to use std::thread"
            r"|terminate called without an active exception)"
        ),
        explains=(
            "An object or thread lifetime error: a pure virtual call during construction or "
            "destruction or through a dangling pointer, or a joinable std::thread destroyed "
            "without join; use RAII, smart pointers, std::jthread, and link Threads::Threads."
        ),
    ),
    Symptom(
        name="cpp-switch-case-scope",
        pattern=(
            r"(?-i:jump to case label"
            r"|crosses initialization of"
            r"|cannot jump from switch statement to this case label)"
        ),
        explains=(
            "A variable declared inside a switch case is skipped by a later case label; put each "
            "case's body in braces to give it its own scope, or declare the variable before the "
            "switch."
        ),
    ),
    Symptom(
        name="zig-version-api-drift",
        pattern=(
            r"(?-i:root struct of file '[\w.]+' has no member named"
            r"|no field named '\w+' in struct 'Build"
            r"|no field or member function named '\w+' in 'Build"
            r"|minimum_zig_version"
            r"|no member named '\w+' in struct 'std\.)"
        ),
        explains=(
            "Zig code or build.zig was written for another Zig version: the standard library and "
            "build system API change between releases; pin the Zig version (minimum_zig_version "
            "in build.zig.zon), follow the release notes when upgrading."
        ),
    ),
    Symptom(
        name="gha-billing-quota",
        pattern=(
            r"(?-i:recent account payments have failed"
            r"|spending limit needs to be increased"
            r"|included services for GitHub Actions"
            r"|The job was not started because)"
        ),
        explains=(
            "GitHub Actions did not run the job because of the account's billing, spending limit "
            "or minutes quota; check the organisation's billing settings, use self-hosted "
            "runners, cache dependencies and cancel redundant runs with concurrency."
        ),
        environment=True,
    ),
    Symptom(
        name="gha-deprecated-action",
        pattern=(
            r"(?-i:automatically failed because it uses a deprecated version of"
            r"|actions are deprecated"
            r"|set-output` command is deprecated"
            r"|save-state` command is deprecated"
            r"|Node\.js \d+ actions are deprecated)"
        ),
        explains=(
            "A workflow uses a deprecated action version or workflow command "
            "(actions/upload-artifact v3, set-output, old Node runtimes); upgrade actions to "
            "current major versions, pin them by SHA with Dependabot updates, write outputs to "
            "GITHUB_OUTPUT."
        ),
    ),
)
