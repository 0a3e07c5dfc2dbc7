"""Failure glossary for systems and infrastructure: C/C++, Rust, Go, Zig, JVM, Swift, embedded,
blockchain, containers, cloud and IaC, CI, git, shell, networking, queues and observability."""

from fireworks_skill_memory.memory.retrieval.glossary.symptom import Symptom

SYMPTOMS: tuple[Symptom, ...] = (
    # C and C++
    Symptom(
        name="c-segfault",
        pattern=(
            r"(?-i:segmentation fault"
            r"|Segmentation fault"
            r"|SIGSEGV\b"
            r"|signal 11\b"
            r"|Signal 11\b"
            r"|core dumped"
            r"|Core dumped)"
        ),
        explains=(
            "A null, dangling or uninitialised pointer was dereferenced, an array was indexed out "
            "of bounds, or recursion overflowed the stack; prefer RAII and smart pointers, "
            "initialise every pointer, check bounds, run AddressSanitizer in tests."
        ),
    ),
    Symptom(
        name="c-heap-corruption",
        pattern=(
            r"(?-i:double free"
            r"|Double free"
            r"|free\(\): invalid (?:pointer|size|next size)"
            r"|munmap_chunk\(\): invalid pointer"
            r"|corrupted (?:size vs\. prev_size|double-linked)"
            r"|Corrupted (?:size vs\. prev_size|double-linked)"
            r"|malloc\(\): (?:corrupted|memory corruption|unaligned)"
            r"|attempting double-free"
            r"|Attempting double-free)"
        ),
        explains=(
            "Memory was freed twice or corrupted: a class with a raw owning pointer was copied "
            "shallowly, or delete ran on memory not owned; follow the Rule of Five or Rule of "
            "Zero, use unique_ptr for ownership, never free manually twice."
        ),
    ),
    Symptom(
        name="c-use-after-free",
        pattern=(
            r"(?-i:heap-use-after-free"
            r"|use-after-free"
            r"|stack-use-after-(?:return|scope)"
            r"|use of memory after it is freed"
            r"|Use of memory after it is freed"
            r"|dangling (?:pointer|reference)"
            r"|Dangling (?:pointer|reference))"
        ),
        explains=(
            "An object was used after its lifetime ended: a reference or iterator outlived its "
            "container, a pointer to a local was returned, or a vector reallocated; manage "
            "lifetime and ownership with RAII, smart pointers and value semantics."
        ),
    ),
    Symptom(
        name="c-buffer-overflow",
        pattern=(
            r"(?-i:heap-buffer-overflow"
            r"|stack-buffer-overflow"
            r"|global-buffer-overflow"
            r"|stack smashing detected"
            r"|Stack smashing detected"
            r"|buffer overflow detected"
            r"|Buffer overflow detected"
            r"|array subscript [^\n]{0,60}(?:above|outside) array bounds"
            r"|Array subscript [^\n]{0,60}(?:above|outside) array bounds"
            r"|-Wstringop-overflow"
            r"|-Warray-bounds)"
        ),
        explains=(
            "Memory was written or read past the end of a buffer: an off-by-one loop, strcpy or "
            "sprintf without a length, a missing null terminator; use std::vector, std::array, "
            "std::span, .at(), snprintf and bounds checks."
        ),
    ),
    Symptom(
        name="c-memory-leak",
        pattern=(
            r"(?-i:LeakSanitizer"
            r"|detected memory leaks"
            r"|Detected memory leaks"
            r"|definitely lost: [1-9]"
            r"|Definitely lost: [1-9]"
            r"|Direct leak of)"
        ),
        explains=(
            "Allocated memory was never released: new without delete, malloc without free, an "
            "early return or exception skipped cleanup; use RAII, smart pointers and containers "
            "so ownership frees resources automatically."
        ),
    ),
    Symptom(
        name="c-undefined-behavior",
        pattern=(
            r"(?-i:UndefinedBehaviorSanitizer"
            r"|runtime error: (?:signed integer overflow|shift exponent|load of misaligned|member"
            r" (?:access|call) within null|index \d+ out of bounds|division by zero|load of value)"
            r"|Runtime error: (?:signed integer overflow|shift exponent|load of misaligned|member"
            r" (?:access|call) within null|index \d+ out of bounds|division by zero|load of"
            r" value))"
        ),
        explains=(
            "Undefined behavior: signed integer overflow, an invalid shift, misaligned access, a "
            "null member call or uninitialised value; use checked or unsigned arithmetic, "
            "initialise variables, validate inputs, keep UBSan in CI."
        ),
    ),
    Symptom(
        name="c-data-race",
        pattern=(
            r"(?-i:ThreadSanitizer"
            r"|lock-order-inversion)"
        ),
        explains=(
            "Threads access shared data without synchronisation or take locks in inconsistent "
            "order; protect shared state with std::mutex and lock_guard/scoped_lock, use "
            "std::atomic, keep a consistent lock order, prefer message passing."
        ),
    ),
    Symptom(
        name="cpp-undefined-reference",
        pattern=(
            r"(?-i:undefined reference to"
            r"|Undefined reference to"
            r"|unresolved external symbol"
            r"|Unresolved external symbol"
            r"|Undefined symbols for architecture"
            r"|symbol\(s\) not found for architecture"
            r"|undefined symbol: "
            r"|Undefined symbol: "
            r"|ld returned 1 exit status"
            r"|Ld returned 1 exit status)"
        ),
        explains=(
            "The linker cannot find a definition: a library is not linked (target_link_libraries), "
            "a source file is missing from the target, a template is defined outside its header, "
            'extern "C" is missing, or a declared function was never defined.'
        ),
    ),
    Symptom(
        name="cpp-vtable-missing",
        pattern=(
            "(?-i:undefined reference to [`'\\\"]?(?:vtable|typeinfo) for"
            "|Undefined reference to [`'\\\"]?(?:vtable|typeinfo) for)"
        ),
        explains=(
            "A class declares virtual functions that are never defined, often the first "
            "non-inline virtual or the virtual destructor, or the file is not compiled into the "
            "target; define every virtual function or mark it pure (= 0)."
        ),
    ),
    Symptom(
        name="cpp-multiple-definition",
        pattern=(
            r"(?-i:multiple definition of"
            r"|Multiple definition of"
            r"|duplicate symbol"
            r"|Duplicate symbol"
            r"|already defined in"
            r"|Already defined in"
            r"|redefinition of"
            r"|Redefinition of)"
        ),
        explains=(
            "The same symbol is defined twice: a function or variable defined in a header included "
            "by several files; respect the one definition rule (ODR), use include guards or "
            "#pragma once, mark header definitions inline, declare extern."
        ),
    ),
    Symptom(
        name="c-header-not-found",
        pattern=(
            r"(?-i:fatal error: [^\n]{1,120}: No such file or directory"
            r"|Fatal error: [^\n]{1,120}: No such file or directory"
            r"|fatal error: '[^'\n]+' file not found"
            r"|Fatal error: '[^'\n]+' file not found"
            r"|Cannot open include file"
            r"|cannot open source file"
            r"|Cannot open source file)"
        ),
        explains=(
            "An include path is missing or the dependency is not installed: set "
            "target_include_directories, link the imported CMake target, install the -dev "
            "package, or use a package manager such as vcpkg or conan."
        ),
    ),
    Symptom(
        name="c-undeclared-identifier",
        pattern=(
            r"(?-i:implicit declaration of function"
            r"|Implicit declaration of function"
            r"|was not declared in this scope"
            r"|Was not declared in this scope"
            r"|use of undeclared identifier"
            r"|Use of undeclared identifier"
            r"|undeclared \(first use in this function\)"
            r"|Undeclared \(first use in this function\)"
            r"|is not a member of [`']?std"
            r"|Is not a member of [`']?std"
            r"|does not name a type"
            r"|Does not name a type"
            r"|unknown type name"
            r"|Unknown type name)"
        ),
        explains=(
            "A name is used without a declaration: a missing #include, a missing std:: namespace "
            "prefix, a typo, a declaration order problem or a feature needing a newer C++ "
            "standard; include what you use and set CMAKE_CXX_STANDARD."
        ),
    ),
    Symptom(
        name="cpp-no-matching-function",
        pattern=(
            r"(?-i:no matching (?:function|constructor|member function) for"
            r"|No matching (?:function|constructor|member function) for"
            r"|no viable conversion"
            r"|No viable conversion"
            r"|invalid conversion from"
            r"|Invalid conversion from"
            r"|cannot convert [`'][^\n]{1,80}[`'] to"
            r"|Cannot convert [`'][^\n]{1,80}[`'] to"
            r"|discards qualifiers"
            r"|Discards qualifiers"
            r"|binding reference of type [^\n]{1,80} discards qualifiers"
            r"|Binding reference of type [^\n]{1,80} discards qualifiers"
            r"|no viable overloaded"
            r"|No viable overloaded)"
        ),
        explains=(
            "Argument types do not match any overload: const-correctness violated, a pointer "
            "passed where a reference is expected, implicit narrowing; keep const-correct "
            "interfaces, use explicit conversions and correct parameter types."
        ),
    ),
    Symptom(
        name="cpp-deleted-function",
        pattern=(
            r"(?-i:use of deleted function"
            r"|Use of deleted function"
            r"|call to (?:implicitly-)?deleted (?:copy )?constructor"
            r"|Call to (?:implicitly-)?deleted (?:copy )?constructor"
            r"|attempting to reference a deleted function"
            r"|Attempting to reference a deleted function"
            r"|copy constructor is implicitly deleted"
            r"|Copy constructor is implicitly deleted)"
        ),
        explains=(
            "A move-only type such as unique_ptr, thread or mutex is copied, or a special member "
            "was deleted; transfer ownership with std::move, pass by reference, follow the Rule "
            "of Five or Rule of Zero."
        ),
    ),
    Symptom(
        name="cpp-incomplete-type",
        pattern=(
            r"(?-i:invalid use of incomplete type"
            r"|Invalid use of incomplete type"
            r"|has incomplete type"
            r"|Has incomplete type"
            r"|incomplete type [`'][^\n]{1,80}[`'] (?:used|named)"
            r"|Incomplete type [`'][^\n]{1,80}[`'] (?:used|named)"
            r"|invalid application of 'sizeof' to an incomplete type"
            r"|Invalid application of 'sizeof' to an incomplete type)"
        ),
        explains=(
            "Only a forward declaration is visible where the full definition is needed; include "
            "the header in the .cpp, and with the pimpl idiom and unique_ptr define the "
            "destructor out of line where the type is complete."
        ),
    ),
    Symptom(
        name="cpp-template-instantiation",
        pattern=(
            r"(?-i:required from here"
            r"|Required from here"
            r"|in instantiation of (?:function )?template"
            r"|In instantiation of (?:function )?template"
            r"|static assertion failed"
            r"|Static assertion failed"
            r"|static_assert failed"
            r"|constraints not satisfied"
            r"|Constraints not satisfied"
            r"|template argument deduction"
            r"|Template argument deduction)"
        ),
        explains=(
            "A template was instantiated with a type that lacks the required operations; state "
            "requirements with concepts or static_assert, check the first error in the "
            "instantiation chain, keep templates defined in headers."
        ),
    ),
    Symptom(
        name="cpp-terminate-called",
        pattern=(
            r"(?-i:terminate called (?:after throwing|without an active exception|recursively)"
            r"|Terminate called (?:after throwing|without an active exception|recursively)"
            r"|pure virtual (?:method|function) called"
            r"|Pure virtual (?:method|function) called"
            r"|std::bad_alloc"
            r"|std::out_of_range)"
        ),
        explains=(
            "An exception escaped uncaught, a joinable std::thread was destroyed, a noexcept "
            "function or destructor threw, or a virtual call ran during construction; join "
            "threads (jthread), catch at boundaries, keep destructors non-throwing."
        ),
    ),
    Symptom(
        name="c-assertion-abort",
        pattern=(
            r"(?-i:Assertion [`'][^\n]{1,200}' failed"
            r"|Aborted \(core dumped\)"
            r"|SIGABRT)"
        ),
        explains=(
            "A runtime invariant failed and abort() was called: precondition violated by the "
            "caller or invalid state; validate inputs at boundaries, handle error returns, keep "
            "assertions for programmer errors only."
        ),
    ),
    Symptom(
        name="cmake-package-not-found",
        pattern=(
            r"(?-i:Could not find a package configuration file provided by"
            r"|By not providing \"Find\w+\.cmake\""
            r"|Could NOT find \w+"
            r"|Could not find a configuration file for package)"
        ),
        explains=(
            "find_package cannot locate a dependency: it is not installed or CMAKE_PREFIX_PATH / "
            "toolchain file is missing; manage dependencies with vcpkg, conan or FetchContent and "
            "pin their versions."
        ),
    ),
    Symptom(
        name="cmake-config-error",
        pattern=(
            r"(?-i:CMake Error at"
            r"|Cannot find source file"
            r"|No SOURCES given to target"
            r"|Unknown CMake command"
            r"|cmake_minimum_required"
            r"|target_link_libraries [^\n]{0,60}not built by this"
            r"|No CMAKE_(?:C|CXX)_COMPILER could be found)"
        ),
        explains=(
            "The CMake configuration is wrong: a source path changed, a target is used before it "
            "is defined, or the compiler is missing; use modern target-based CMake, out-of-source "
            "builds and explicit source lists."
        ),
    ),
    Symptom(
        name="make-no-rule",
        pattern=(
            r"(?-i:No rule to make target"
            r"|missing separator"
            r"|Missing separator"
            r"|recipe for target [^\n]{1,80} failed"
            r"|Recipe for target [^\n]{1,80} failed)"
        ),
        explains=(
            "The Makefile references a file that does not exist or uses spaces instead of a tab "
            "before a recipe; generated dependencies are stale; run a clean build and keep "
            "build files generated by CMake or similar."
        ),
    ),
    Symptom(
        name="c-warnings-as-errors",
        pattern=(
            r"(?-i:-Werror"
            r"|warnings being treated as errors"
            r"|Warnings being treated as errors"
            r"|\[-W[a-z][\w-]+\])"
        ),
        explains=(
            "Compiler warnings are errors: unused variables, sign comparison, implicit "
            "conversion, format strings, missing return; fix the code rather than silence "
            "warnings, keep -Wall -Wextra clean."
        ),
    ),
    # Rust
    Symptom(
        name="rust-use-after-move",
        pattern=(
            r"(?-i:E0382"
            r"|borrow of moved value"
            r"|Borrow of moved value"
            r"|use of moved value"
            r"|Use of moved value"
            r"|value used here after move"
            r"|Value used here after move)"
        ),
        explains=(
            "Ownership moved into another binding, function or closure and the value was used "
            "again; borrow with & instead of moving, clone explicitly when needed, derive Copy "
            "for small value types."
        ),
    ),
    Symptom(
        name="rust-move-out-of-borrow",
        pattern=(
            r"(?-i:E0507"
            r"|E0508"
            r"|E0509"
            r"|cannot move out of [^\n]{0,80}(?:behind a (?:shared|mutable) reference|index of"
            r"|which is behind)"
            r"|Cannot move out of [^\n]{0,80}(?:behind a (?:shared|mutable) reference|index of"
            r"|which is behind))"
        ),
        explains=(
            "A value is moved out of a reference, a Vec index or a struct field; borrow it, "
            "clone it, use as_ref, take() or std::mem::take/replace to respect ownership."
        ),
    ),
    Symptom(
        name="rust-borrow-conflict",
        pattern=(
            r"(?-i:E0499"
            r"|E0502"
            r"|E0506"
            r"|E0505"
            r"|cannot borrow [^\n]{0,80} as (?:mutable|immutable) (?:more than once|because it is"
            r" also borrowed)"
            r"|Cannot borrow [^\n]{0,80} as (?:mutable|immutable) (?:more than once|because it is"
            r" also borrowed)"
            r"|because it is borrowed"
            r"|Because it is borrowed)"
        ),
        explains=(
            "The borrow checker forbids a mutable borrow aliasing another borrow; shorten borrow "
            "scopes, split borrows across fields, collect before mutating, clone, or use "
            "interior mutability (RefCell, Mutex) when sharing is required."
        ),
    ),
    Symptom(
        name="rust-lifetime",
        pattern=(
            r"(?-i:E0597"
            r"|E0515"
            r"|E0716"
            r"|E0106"
            r"|E0373"
            r"|does not live long enough"
            r"|Does not live long enough"
            r"|returns a (?:value|reference) referencing data owned by the current function"
            r"|Returns a (?:value|reference) referencing data owned by the current function"
            r"|temporary value dropped while borrowed"
            r"|Temporary value dropped while borrowed"
            r"|missing lifetime specifier"
            r"|Missing lifetime specifier"
            r"|lifetime may not live long enough"
            r"|Lifetime may not live long enough"
            r"|may outlive the current function"
            r"|May outlive the current function)"
        ),
        explains=(
            "A reference outlives the data it points to: returning a reference to a local, a "
            "temporary, or a closure or thread borrowing locals; return owned values (String, "
            "Vec), add lifetime annotations, use move closures, Arc or scoped threads."
        ),
    ),
    Symptom(
        name="rust-mutability",
        pattern=(
            r"(?-i:E0596"
            r"|E0384"
            r"|as mutable, as it is not declared as mutable"
            r"|As mutable, as it is not declared as mutable"
            r"|cannot assign twice to immutable variable"
            r"|Cannot assign twice to immutable variable"
            r"|as mutable, as it is behind a [`']?&[`']? reference"
            r"|As mutable, as it is behind a [`']?&[`']? reference)"
        ),
        explains=(
            "A binding or reference is immutable: declare the variable mut, take &mut self or "
            "&mut parameters, or use interior mutability with Cell, RefCell or Mutex."
        ),
    ),
    Symptom(
        name="rust-type-mismatch",
        pattern=(
            r"(?-i:E0308"
            r"|mismatched types"
            r"|Mismatched types"
            r"|expected [`'][^\n]{1,80}[`'], found"
            r"|Expected [`'][^\n]{1,80}[`'], found)"
        ),
        explains=(
            "Types differ: String vs &str, Option or Result not unwrapped, integer widths, a "
            "missing return or an extra semicolon; convert explicitly with into, as_str, "
            "to_string, handle Option/Result with ? or match."
        ),
    ),
    Symptom(
        name="rust-trait-bound",
        pattern=(
            r"(?-i:E0277"
            r"|the trait bound [^\n]{0,160} is not satisfied"
            r"|The trait bound [^\n]{0,160} is not satisfied"
            r"|doesn't implement [`'](?:std::fmt::)?(?:Debug|Display)"
            r"|Doesn't implement [`'](?:std::fmt::)?(?:Debug|Display)"
            r"|is not implemented for"
            r"|Is not implemented for"
            r"|E0599"
            r"|no method named [`'][^\n]{1,60}[`'] found"
            r"|No method named [`'][^\n]{1,60}[`'] found)"
        ),
        explains=(
            "A type lacks a required trait implementation or the trait is not in scope; derive "
            "Debug, Clone, PartialEq, Serialize, implement the trait, add generic bounds, or "
            "import the trait with use."
        ),
    ),
    Symptom(
        name="rust-question-mark-error",
        pattern=(
            r"(?-i:the [`']\?[`'] operator can only be used"
            r"|The [`']\?[`'] operator can only be used"
            r"|`\?[`'] couldn't convert the error"
            r"|'\?[`'] couldn't convert the error"
            r"|cannot use the [`']\?[`'] operator"
            r"|Cannot use the [`']\?[`'] operator)"
        ),
        explains=(
            "The ? operator needs the function to return Result or Option and a From conversion "
            "between error types; define an error enum with thiserror, use anyhow in "
            "applications, return Result from main."
        ),
    ),
    Symptom(
        name="rust-send-sync",
        pattern=(
            r"(?-i:cannot be (?:sent|shared) between threads safely"
            r"|Cannot be (?:sent|shared) between threads safely"
            r"|future cannot be sent between threads safely"
            r"|Future cannot be sent between threads safely"
            r"|is not [`']Send[`']"
            r"|Is not [`']Send[`']"
            r"|held across an? [`']?\.?await"
            r"|Held across an? [`']?\.?await"
            r"|E0277[^\n]{0,60}Send)"
        ),
        explains=(
            "A non-thread-safe value crosses threads or is held across .await in a spawned task: "
            "use Arc instead of Rc, Mutex or RwLock instead of RefCell, drop MutexGuard before "
            "await, use tokio::sync::Mutex, require Send + Sync bounds."
        ),
    ),
    Symptom(
        name="rust-unresolved-name",
        pattern=(
            r"(?-i:E0432"
            r"|E0433"
            r"|E0425"
            r"|E0412"
            r"|E0422"
            r"|unresolved import"
            r"|Unresolved import"
            r"|failed to resolve: use of undeclared"
            r"|Failed to resolve: use of undeclared"
            r"|cannot find (?:value|type|function|macro|struct|trait|crate) [`']"
            r"|Cannot find (?:value|type|function|macro|struct|trait|crate) [`']"
            r"|can't find crate for"
            r"|Can't find crate for)"
        ),
        explains=(
            "A path or item cannot be resolved: wrong module path, missing mod declaration, "
            "missing pub visibility, crate not added to Cargo.toml, or a disabled cargo feature; "
            "use crate:: paths and enable the needed features."
        ),
    ),
    Symptom(
        name="rust-private-item",
        pattern=(
            r"(?-i:E0603"
            r"|E0616"
            r"|E0624"
            r"|E0451"
            r"|function [`'][^`'\n]{1,60}[`'] is private"
            r"|Function [`'][^`'\n]{1,60}[`'] is private"
            r"|struct [`'][^`'\n]{1,60}[`'] is private"
            r"|Struct [`'][^`'\n]{1,60}[`'] is private"
            r"|module [`'][^`'\n]{1,60}[`'] is private"
            r"|Module [`'][^`'\n]{1,60}[`'] is private"
            r"|field [`'][^`'\n]{1,60}[`'] is private"
            r"|Field [`'][^`'\n]{1,60}[`'] is private"
            r"|method [`'][^`'\n]{1,60}[`'] is private"
            r"|Method [`'][^`'\n]{1,60}[`'] is private"
            r"|constant [`'][^`'\n]{1,60}[`'] is private"
            r"|Constant [`'][^`'\n]{1,60}[`'] is private"
            r"|enum [`'][^`'\n]{1,60}[`'] is private"
            r"|Enum [`'][^`'\n]{1,60}[`'] is private"
            r"|private (?:field|type|function|method) [`']"
            r"|Private (?:field|type|function|method) [`'])"
        ),
        explains=(
            "An item is private to its module; expose it with pub or pub(crate), add "
            "constructors and accessor methods, keep encapsulation deliberate in the module tree."
        ),
    ),
    Symptom(
        name="rust-non-exhaustive-match",
        pattern=(
            r"(?-i:E0004"
            r"|non-exhaustive patterns"
            r"|patterns? [`'][^\n]{1,80}[`'] not covered)"
        ),
        explains=(
            "A match does not handle every variant; match exhaustively on enums, handle None and "
            "Err explicitly, prefer listing variants over a catch-all wildcard so new variants "
            "are caught at compile time."
        ),
    ),
    Symptom(
        name="rust-object-safety-orphan",
        pattern=(
            r"(?-i:E0038"
            r"|E0117"
            r"|E0119"
            r"|E0210"
            r"|cannot be made into an object"
            r"|Cannot be made into an object"
            r"|is not dyn compatible"
            r"|Is not dyn compatible"
            r"|conflicting implementations of trait"
            r"|Conflicting implementations of trait"
            r"|only traits defined in the current crate"
            r"|Only traits defined in the current crate)"
        ),
        explains=(
            "Trait objects need object-safe traits (no generic methods, no Self returns), and the "
            "orphan rule forbids implementing foreign traits for foreign types; use generics, "
            "enums, or the newtype pattern."
        ),
    ),
    Symptom(
        name="rust-unsized",
        pattern=(
            r"(?-i:doesn't have a size known at compile-time"
            r"|Doesn't have a size known at compile-time"
            r"|the size for values of type [^\n]{1,80} cannot be known"
            r"|The size for values of type [^\n]{1,80} cannot be known"
            r"|E0072"
            r"|recursive type [`'][^\n]{1,60}[`'] has infinite size"
            r"|Recursive type [`'][^\n]{1,60}[`'] has infinite size)"
        ),
        explains=(
            "A dynamically sized or recursive type is used by value; put it behind a reference "
            "or Box (Box<dyn Trait>, Box<Node>), use &str and slices instead of str and [T]."
        ),
    ),
    Symptom(
        name="rust-unwrap-panic",
        pattern=(
            r"(?-i:called [`'](?:Option|Result)::(?:unwrap|expect)\(\)[`'] on an? [`']?(?:None"
            r"|Err)"
            r"|Called [`'](?:Option|Result)::(?:unwrap|expect)\(\)[`'] on an? [`']?(?:None|Err)"
            r"|panicked at [^\n]{0,120}(?:unwrap|expect)"
            r"|Panicked at [^\n]{0,120}(?:unwrap|expect))"
        ),
        explains=(
            "unwrap or expect hit None or Err at runtime; propagate errors with the ? operator, "
            "handle them with match, if let or unwrap_or_else, and avoid unwrap in production "
            "code and library APIs."
        ),
    ),
    Symptom(
        name="rust-runtime-panic-bounds",
        pattern=(
            r"(?-i:index out of bounds: the len is"
            r"|Index out of bounds: the len is"
            r"|attempt to (?:add|subtract|multiply|divide|negate|shift left|shift right) with"
            r" overflow"
            r"|Attempt to (?:add|subtract|multiply|divide|negate|shift left|shift right) with"
            r" overflow"
            r"|is not a char boundary"
            r"|Is not a char boundary"
            r"|attempt to divide by zero"
            r"|Attempt to divide by zero"
            r"|slice index starts at"
            r"|Slice index starts at)"
        ),
        explains=(
            "Indexing, slicing or arithmetic panicked: use .get() instead of [], checked_, "
            "saturating_ or wrapping_ arithmetic, validate lengths, and use char_indices for "
            "UTF-8 strings instead of byte offsets."
        ),
    ),
    Symptom(
        name="rust-refcell-borrow",
        pattern=(
            r"(?-i:already (?:mutably )?borrowed"
            r"|Already (?:mutably )?borrowed"
            r"|BorrowMutError"
            r"|BorrowError)"
        ),
        explains=(
            "RefCell's runtime borrow rules were violated: a borrow_mut while another borrow is "
            "alive, often across a callback or loop; keep borrows short, drop guards before "
            "calling out, restructure ownership instead of Rc<RefCell>."
        ),
    ),
    Symptom(
        name="rust-tokio-runtime",
        pattern=(
            r"(?-i:there is no reactor running"
            r"|There is no reactor running"
            r"|must be called from the context of a Tokio"
            r"|Must be called from the context of a Tokio"
            r"|Cannot start a runtime from within a runtime"
            r"|Cannot (?:drop|block_on) a runtime in a context where blocking is not allowed"
            r"|E0728"
            r"|only allowed inside [`']async[`']"
            r"|Only allowed inside [`']async[`'])"
        ),
        explains=(
            "Async code runs outside a runtime or blocks inside one; use #[tokio::main] or "
            "#[tokio::test], never nest block_on, use spawn_blocking for blocking work, and "
            "await futures only inside async functions."
        ),
    ),
    Symptom(
        name="rust-unused-future",
        pattern=(
            r"(?-i:futures do nothing unless you [`']?\.await"
            r"|Futures do nothing unless you [`']?\.await"
            r"|unused implementer of [`'](?:std::future::|core::future::)?Future"
            r"|Unused implementer of [`'](?:std::future::|core::future::)?Future"
            r"|unused [`'](?:Result|Future)[`'] that must be used"
            r"|Unused [`'](?:Result|Future)[`'] that must be used)"
        ),
        explains=(
            "A future or Result was dropped without use; await futures, handle or propagate "
            "every Result, never discard errors with let _ ="
        ),
    ),
    Symptom(
        name="rust-serde",
        pattern=(
            r"(?-i:missing field [`']\w+[`']"
            r"|Missing field [`']\w+[`']"
            r"|unknown field [`']\w+[`'], expected"
            r"|Unknown field [`']\w+[`'], expected"
            r"|invalid type: [^\n]{1,60}, expected"
            r"|Invalid type: [^\n]{1,60}, expected"
            r"|unknown variant [`'][^\n]{1,40}[`'], expected"
            r"|Unknown variant [`'][^\n]{1,40}[`'], expected)"
        ),
        explains=(
            "Deserialisation does not match the data shape; align serde derives with the format "
            "using #[serde(default)], Option fields, rename_all, deny_unknown_fields deliberately, "
            "and validate external input at boundaries."
        ),
    ),
    Symptom(
        name="rust-sqlx",
        pattern=(
            r"(?-i:set [`']?DATABASE_URL[`']? to use query macros"
            r"|Set [`']?DATABASE_URL[`']? to use query macros"
            r"|SQLX_OFFLINE"
            r"|sqlx::"
            r"|error returned from database"
            r"|Error returned from database"
            r"|no rows returned by a query that expected"
            r"|No rows returned by a query that expected)"
        ),
        explains=(
            "sqlx compile-time checked queries need DATABASE_URL or prepared offline metadata "
            "(cargo sqlx prepare), and migrations applied with sqlx migrate run; handle "
            "RowNotFound with fetch_optional."
        ),
    ),
    Symptom(
        name="cargo-dependency-resolution",
        pattern=(
            r"(?-i:failed to select a version for"
            r"|Failed to select a version for"
            r"|no matching package named"
            r"|No matching package named"
            r"|cannot be built because it requires rustc"
            r"|Cannot be built because it requires rustc"
            r"|requires rustc [\d.]+ or newer"
            r"|Requires rustc [\d.]+ or newer"
            r"|feature [`'][^\n]{1,60}[`'] is required"
            r"|Feature [`'][^\n]{1,60}[`'] is required"
            r"|failed to parse manifest"
            r"|Failed to parse manifest"
            r"|package collision"
            r"|Package collision"
            r"|lock file version"
            r"|Lock file version)"
        ),
        explains=(
            "Cargo cannot resolve dependencies: incompatible semver ranges, a crate needing a "
            "newer rustc (MSRV, rust-version), a missing feature flag; pin versions, commit "
            "Cargo.lock for binaries, use cargo update -p and a rust-toolchain file."
        ),
    ),
    Symptom(
        name="cargo-native-build",
        pattern=(
            r"(?-i:linker [`']cc[`'] not found"
            r"|Linker [`']cc[`'] not found"
            r"|failed to run custom build command for"
            r"|Failed to run custom build command for"
            r"|Could not find (?:directory of )?OpenSSL"
            r"|could not find system library"
            r"|Could not find system library"
            r"|pkg-config (?:has not been|command could not be found)"
            r"|error: linking with [`']\w+[`'] failed)"
        ),
        explains=(
            "A build script or linker needs native tooling: a C compiler, pkg-config or -dev "
            "libraries such as OpenSSL are missing; install them, or prefer pure-Rust "
            "alternatives like rustls and vendored features."
        ),
        environment=True,
    ),
    Symptom(
        name="rust-clippy",
        pattern=(
            r"(?-i:clippy::\w+"
            r"|implied by [`']?-D warnings"
            r"|Implied by [`']?-D warnings"
            r"|#\[deny\((?:warnings|clippy))"
        ),
        explains=(
            "A clippy or rustc lint is denied: unwrap_used, needless_clone, redundant borrow, "
            "unused variables or imports; write idiomatic Rust, fix lints instead of allowing "
            "them, keep cargo clippy -D warnings clean in CI."
        ),
    ),
    # Go
    Symptom(
        name="go-nil-pointer",
        pattern=(
            r"(?-i:invalid memory address or nil pointer dereference"
            r"|Invalid memory address or nil pointer dereference"
            r"|SIGSEGV: segmentation violation)"
        ),
        explains=(
            "A nil pointer, interface or map value was used because an error return was ignored "
            "or a value was never initialised; always check and handle errors, never assign them "
            "to _, initialise structs and guard optional values."
        ),
    ),
    Symptom(
        name="go-nil-map",
        pattern=(
            r"(?-i:assignment to entry in nil map"
            r"|Assignment to entry in nil map)"
        ),
        explains=(
            "A map was declared but never initialised; create maps with make or a literal in "
            "constructors, initialise struct map fields before writing."
        ),
    ),
    Symptom(
        name="go-index-out-of-range",
        pattern=(
            r"(?-i:index out of range \[\d+\] with length"
            r"|Index out of range \[\d+\] with length"
            r"|slice bounds out of range"
            r"|Slice bounds out of range)"
        ),
        explains=(
            "A slice or string was indexed past its length, often an empty result or off-by-one; "
            "check len before indexing, handle empty slices, validate input sizes."
        ),
    ),
    Symptom(
        name="go-deadlock",
        pattern=(
            r"(?-i:all goroutines are asleep - deadlock"
            r"|All goroutines are asleep - deadlock"
            r"|fatal error: all goroutines"
            r"|Fatal error: all goroutines)"
        ),
        explains=(
            "Every goroutine is blocked: send on an unbuffered channel with no receiver, missing "
            "close, WaitGroup.Wait never satisfied, or a mutex locked twice; have the sender close "
            "channels, use select with context cancellation, buffered channels."
        ),
    ),
    Symptom(
        name="go-data-race",
        pattern=(
            r"(?-i:WARNING: DATA RACE"
            r"|race detected during execution of test"
            r"|Race detected during execution of test"
            r"|concurrent map (?:writes|read and map write|iteration and map write)"
            r"|Concurrent map (?:writes|read and map write|iteration and map write))"
        ),
        explains=(
            "Goroutines access shared memory without synchronisation; protect state with "
            "sync.Mutex or RWMutex, use sync.Map or channels, copy loop variables, and run go "
            "test -race in CI."
        ),
    ),
    Symptom(
        name="go-channel-sync-misuse",
        pattern=(
            r"(?-i:send on closed channel"
            r"|Send on closed channel"
            r"|close of (?:closed|nil) channel"
            r"|Close of (?:closed|nil) channel"
            r"|negative WaitGroup counter"
            r"|Negative WaitGroup counter"
            r"|unlock of unlocked mutex"
            r"|Unlock of unlocked mutex"
            r"|WaitGroup is reused before previous Wait)"
        ),
        explains=(
            "Channel or sync primitive misuse: only the sender should close a channel, exactly "
            "once; call wg.Add before starting the goroutine and Done with defer; pair every "
            "Lock with a deferred Unlock."
        ),
    ),
    Symptom(
        name="go-unused",
        pattern=(
            r"(?-i:declared and not used"
            r"|Declared and not used"
            r"|declared but not used"
            r"|Declared but not used"
            r"|imported and not used"
            r"|Imported and not used)"
        ),
        explains=(
            "Go rejects unused variables and imports; remove them or run goimports, and use "
            "returned errors rather than discarding them with _."
        ),
    ),
    Symptom(
        name="go-multi-value",
        pattern=(
            r"(?-i:multiple-value [^\n]{1,80} in single-value context"
            r"|assignment mismatch: \d+ variables? but"
            r"|Assignment mismatch: \d+ variables? but"
            r"|missing return"
            r"|Missing return)"
        ),
        explains=(
            "A function returning (value, error) is used as a single value or a return is "
            "missing; capture and check the error every time, never ignore it."
        ),
    ),
    Symptom(
        name="go-type-error",
        pattern=(
            r"(?-i:cannot use [^\n]{1,120} as [^\n]{1,80} (?:value|type) in"
            r"|Cannot use [^\n]{1,120} as [^\n]{1,80} (?:value|type) in"
            r"|does not implement [^\n]{1,80}(?:missing method|pointer receiver)"
            r"|Does not implement [^\n]{1,80}(?:missing method|pointer receiver)"
            r"|undefined: \w+"
            r"|has no field or method"
            r"|Has no field or method"
            r"|mismatched types [^\n]{1,60} and"
            r"|Mismatched types [^\n]{1,60} and"
            r"|invalid operation: [^\n]{1,80} mismatched"
            r"|Invalid operation: [^\n]{1,80} mismatched)"
        ),
        explains=(
            "Static types do not line up: a method has a pointer receiver so only the pointer "
            "implements the interface, an unexported or undefined identifier, or a missing "
            "conversion; keep interfaces small and convert explicitly."
        ),
    ),
    Symptom(
        name="go-modules",
        pattern=(
            r"(?-i:no required module provides package"
            r"|No required module provides package"
            r"|cannot find module providing package"
            r"|Cannot find module providing package"
            r"|missing go\.sum entry"
            r"|Missing go\.sum entry"
            r"|updates to go\.mod needed"
            r"|Updates to go\.mod needed"
            r"|go\.mod file not found"
            r"|is not in GOROOT"
            r"|Is not in GOROOT"
            r"|module declares its path as"
            r"|Module declares its path as"
            r"|but was required as"
            r"|But was required as"
            r"|unknown revision"
            r"|Unknown revision"
            r"|ambiguous import: found package"
            r"|Ambiguous import: found package"
            r"|requires go >= "
            r"|Requires go >= "
            r"|go\.mod requires go)"
        ),
        explains=(
            "Go module metadata is out of sync: run go mod tidy, commit go.mod and go.sum, match "
            "the module path and major version suffix (/v2), pin versions, use the required Go "
            "toolchain version."
        ),
    ),
    Symptom(
        name="go-import-cycle",
        pattern=(
            r"(?-i:import cycle not allowed"
            r"|Import cycle not allowed)"
        ),
        explains=(
            "Two packages import each other; restructure package layering, move shared types to "
            "a lower package, define interfaces in the consumer package, use dependency "
            "injection."
        ),
    ),
    Symptom(
        name="go-vet",
        pattern=(
            r"(?-i:passes lock by value"
            r"|Passes lock by value"
            r"|copylocks"
            r"|loop variable \w+ captured by func literal"
            r"|Loop variable \w+ captured by func literal"
            r"|composite literal uses unkeyed fields"
            r"|Composite literal uses unkeyed fields"
            r"|the cancel function (?:is not used|returned)"
            r"|The cancel function (?:is not used|returned)"
            r"|lostcancel"
            r"|possible misuse of"
            r"|Possible misuse of"
            r"|call has arguments but no formatting directives"
            r"|Call has arguments but no formatting directives"
            r"|format %\w has arg [^\n]{1,60} of wrong type"
            r"|Format %\w has arg [^\n]{1,60} of wrong type"
            r"|printf: )"
        ),
        explains=(
            "go vet found a likely bug: a mutex copied by value, a context cancel function not "
            "called (defer cancel()), printf format mismatches, unkeyed struct literals or loop "
            "variable capture; fix them and run vet in CI."
        ),
    ),
    Symptom(
        name="go-lint-errcheck",
        pattern=(
            r"(?-i:Error return value of [`'][^\n]{1,80}[`'] is not checked"
            r"|\(errcheck\)"
            r"|\((?:staticcheck|ineffassign|govet|gosec|revive|unused|gocritic)\)"
            r"|SA\d{4}\b)"
        ),
        explains=(
            "golangci-lint rules: errcheck, staticcheck, ineffassign, gosec; always handle "
            "errors and never assign them to _, remove dead code, wrap errors with %w context."
        ),
    ),
    Symptom(
        name="go-context-deadline",
        pattern=(
            r"(?-i:context deadline exceeded"
            r"|Context deadline exceeded"
            r"|context canceled"
            r"|Context canceled)"
        ),
        explains=(
            "An operation outlived its context: a downstream call is slow, a timeout is too "
            "short, or the parent was cancelled; propagate ctx through calls, set sensible "
            "timeouts, retry with exponential backoff, defer cancel()."
        ),
    ),
    Symptom(
        name="go-test-hang-leak",
        pattern=(
            r"(?-i:panic: test timed out after"
            r"|found unexpected goroutines"
            r"|Found unexpected goroutines"
            r"|Log in goroutine after Test\w* has completed"
            r"|Fail in goroutine after"
            r"|FailNow called from a non-test)"
        ),
        explains=(
            "A test hangs or leaks goroutines, or reports from a goroutine after the test ended; "
            "cancel contexts, close channels, wait with sync.WaitGroup, use t.Cleanup and "
            "goleak, never call t.Fatal from spawned goroutines."
        ),
    ),
    Symptom(
        name="go-json",
        pattern=(
            r"(?-i:json: cannot unmarshal \w+ into Go"
            r"|json: unsupported type"
            r"|invalid character '[^'\n]{1,4}' looking for beginning of value"
            r"|Invalid character '[^'\n]{1,4}' looking for beginning of value"
            r"|json: unknown field)"
        ),
        explains=(
            "JSON does not match the Go struct: wrong field types, unexported fields, missing "
            "json struct tags, or the body is HTML or an error page; define tags, use pointers "
            "for optional fields, check status codes before decoding."
        ),
    ),
    Symptom(
        name="go-sql",
        pattern=(
            r"(?-i:sql: no rows in result set"
            r"|sql: Scan error"
            r"|converting NULL to \w+ is unsupported"
            r"|Converting NULL to \w+ is unsupported"
            r"|sql: (?:database is closed|transaction has already been committed)"
            r"|driver: bad connection"
            r"|sql: expected \d+ arguments)"
        ),
        explains=(
            "database/sql misuse: handle sql.ErrNoRows with errors.Is, scan NULL into "
            "sql.NullString or pointers, defer rows.Close, roll back transactions on error, "
            "use parameterised queries and a configured connection pool."
        ),
    ),
    Symptom(
        name="go-http-handler",
        pattern=(
            r"(?-i:superfluous response\.WriteHeader"
            r"|Superfluous response\.WriteHeader"
            r"|http: multiple registrations for"
            r"|http: Handler)"
        ),
        explains=(
            "An HTTP handler wrote headers twice or continued after an error response; return "
            "right after http.Error, set headers before WriteHeader, register routes once."
        ),
    ),
    Symptom(
        name="go-build-constraints",
        pattern=(
            r"(?-i:build constraints exclude all Go files"
            r"|Build constraints exclude all Go files"
            r"|cgo: C compiler [^\n]{1,40} not found)"
        ),
        explains=(
            "Build tags, GOOS/GOARCH or CGO_ENABLED exclude the files, or cgo needs a C "
            "compiler; set build tags deliberately and prefer pure-Go dependencies for static "
            "cross-compiled builds."
        ),
    ),
    # Zig
    Symptom(
        name="zig-compile",
        pattern=(
            r"(?-i:error: unused (?:local (?:variable|constant)|function parameter|capture)"
            r"|error: local variable is never mutated"
            r"|error: pointless discard"
            r"|error: expected type '[^'\n]{1,60}', found"
            r"|error: error (?:union|set) is (?:ignored|discarded)"
            r"|error: use of undefined value"
            r"|error: expected error union type)"
        ),
        explains=(
            "Zig rejects unused values, var that should be const, ignored error unions and "
            "implicit casts; handle errors with try or catch, use const by default, cast with "
            "@intCast or @as, discard explicitly with _ = only when intended."
        ),
    ),
    Symptom(
        name="zig-safety-panic",
        pattern=(
            r"(?-i:reached unreachable code"
            r"|Reached unreachable code"
            r"|attempt to use null value"
            r"|Attempt to use null value"
            r"|error\(gpa\):[^\n]{0,80}leaked"
            r"|panic: integer overflow"
            r"|panic: index out of bounds"
            r"|incorrect alignment"
            r"|Incorrect alignment)"
        ),
        explains=(
            "A safety check failed at runtime: integer overflow, out-of-bounds index, null "
            "optional, or a leak reported by the GeneralPurposeAllocator; free with defer and "
            "errdefer right after allocation, use checked arithmetic and optionals."
        ),
    ),
    # JVM: Java, Spring, Hibernate, build tools, Kotlin, Scala
    Symptom(
        name="java-null-pointer",
        pattern=(
            r"(?-i:NullPointerException"
            r"|Cannot invoke \"[^\"\n]{1,120}\" because)"
        ),
        explains=(
            "A null reference was dereferenced: an uninitialised field, a missing map entry, a "
            "repository returning null or an injected bean not set; use Optional, null checks, "
            "Objects.requireNonNull, constructor injection and @NonNull contracts."
        ),
    ),
    Symptom(
        name="java-classpath-linkage",
        pattern=(
            r"(?-i:ClassNotFoundException"
            r"|NoClassDefFoundError"
            r"|NoSuchMethodError"
            r"|NoSuchFieldError"
            r"|IncompatibleClassChangeError"
            r"|AbstractMethodError)"
        ),
        explains=(
            "Classpath or dependency version conflict: a library compiled against another "
            "version, a missing runtime dependency or scope; align versions with a BOM and "
            "dependencyManagement, inspect mvn dependency:tree or gradle dependencies."
        ),
    ),
    Symptom(
        name="java-version-mismatch",
        pattern=(
            r"(?-i:UnsupportedClassVersionError"
            r"|has been compiled by a more recent version of the Java"
            r"|Has been compiled by a more recent version of the Java"
            r"|Unsupported class file major version"
            r"|invalid (?:target|source) release"
            r"|Invalid (?:target|source) release"
            r"|release version \d+ not supported"
            r"|Release version \d+ not supported"
            r"|class file has wrong version"
            r"|Class file has wrong version"
            r"|Gradle requires JVM)"
        ),
        explains=(
            "The JDK running the build or app is older or newer than the target bytecode; pin "
            "the Java version with toolchains, maven.compiler.release or a .java-version file, "
            "and align CI and Docker base images."
        ),
    ),
    Symptom(
        name="java-concurrent-modification",
        pattern=(r"(?-i:ConcurrentModificationException)"),
        explains=(
            "A collection was modified while iterating or shared across threads; use "
            "Iterator.remove or removeIf, collect changes first, or use concurrent collections "
            "such as ConcurrentHashMap and CopyOnWriteArrayList."
        ),
    ),
    Symptom(
        name="java-out-of-memory",
        pattern=(
            r"(?-i:OutOfMemoryError"
            r"|Java heap space"
            r"|GC overhead limit exceeded"
            r"|Metaspace)"
        ),
        explains=(
            "The heap filled up: a memory leak, unbounded cache or collection, loading a whole "
            "result set or file; stream and paginate data, bound caches, size -Xmx and "
            "MaxRAMPercentage for containers."
        ),
    ),
    Symptom(
        name="java-stack-overflow",
        pattern=(
            r"(?-i:StackOverflowError"
            r"|Infinite recursion)"
        ),
        explains=(
            "Unbounded recursion, often bidirectional JPA relationships in toString, "
            "equals/hashCode or JSON serialisation; use @JsonIgnore or @JsonManagedReference, "
            "DTOs, exclude relations from Lombok @ToString and @EqualsAndHashCode."
        ),
    ),
    Symptom(
        name="java-class-cast",
        pattern=(
            r"(?-i:ClassCastException"
            r"|cannot be cast to"
            r"|Cannot be cast to)"
        ),
        explains=(
            "An object has a different runtime type than assumed: raw types, unchecked generics, "
            "two class loaders or a deserialised map; use generics, pattern matching instanceof "
            "and typed DTOs."
        ),
    ),
    Symptom(
        name="java-immutable-collection",
        pattern=(
            r"(?-i:UnsupportedOperationException"
            r"|ImmutableCollections)"
        ),
        explains=(
            "A write was made to an unmodifiable collection from List.of, Map.of, "
            "Collections.unmodifiableList or Arrays.asList; copy into a new ArrayList before "
            "mutating, or keep immutability deliberate."
        ),
    ),
    Symptom(
        name="java-index-number-format",
        pattern=(
            r"(?-i:IndexOutOfBoundsException"
            r"|NumberFormatException"
            r"|For input string)"
        ),
        explains=(
            "An index or parsed number was invalid: empty lists, off-by-one, or unvalidated "
            "string input; check sizes, validate and parse input at boundaries, handle parse "
            "failures."
        ),
    ),
    Symptom(
        name="java-datetime",
        pattern=(
            r"(?-i:DateTimeParseException"
            r"|UnsupportedTemporalTypeException"
            r"|DateTimeException"
            r"|Unable to obtain (?:ZonedDateTime|Instant|LocalDateTime)"
            r"|could not be parsed at index"
            r"|Could not be parsed at index)"
        ),
        explains=(
            "A date string or formatter is wrong: pattern letters (yyyy vs YYYY), missing zone "
            "for an Instant; use java.time with timezone-aware types, ISO-8601 formats, explicit "
            "ZoneId and UTC storage."
        ),
    ),
    Symptom(
        name="java-encoding",
        pattern=(
            r"(?-i:MalformedInputException"
            r"|unmappable character"
            r"|Unmappable character"
            r"|Input length = 1)"
        ),
        explains=(
            "Text was read with the wrong charset; always specify UTF-8 explicitly for readers, "
            "writers and project.build.sourceEncoding, never rely on the platform default."
        ),
    ),
    Symptom(
        name="java-module-access",
        pattern=(
            r"(?-i:InaccessibleObjectException"
            r"|does not \"?opens"
            r"|Does not \"?opens"
            r"|illegal reflective access"
            r"|Illegal reflective access"
            r"|module [\w.]+ does not export"
            r"|Module [\w.]+ does not export"
            r"|IllegalAccessError)"
        ),
        explains=(
            "JPMS strong encapsulation blocks reflection; upgrade libraries that use reflection, "
            "declare opens in module-info, or add --add-opens as a last resort."
        ),
    ),
    Symptom(
        name="java-compile-symbol",
        pattern=(
            r"(?-i:cannot find symbol"
            r"|Cannot find symbol"
            r"|incompatible types: "
            r"|Incompatible types: "
            r"|package [\w.]+ does not exist"
            r"|Package [\w.]+ does not exist"
            r"|non-static (?:method|variable) [^\n]{1,60} cannot be referenced from a static)"
        ),
        explains=(
            "javac cannot resolve a name or type: a missing import or dependency, a wrong "
            "package, generated code (Lombok, MapStruct) without annotation processing enabled, "
            "or static context misuse; configure annotation processors in the build."
        ),
    ),
    Symptom(
        name="java-checked-exception",
        pattern=(
            r"(?-i:unreported exception [\w.]+; must be caught or declared"
            r"|Unreported exception [\w.]+; must be caught or declared"
            r"|might not have been initialized"
            r"|Might not have been initialized"
            r"|variable [^\n]{1,60} might already have been assigned"
            r"|Variable [^\n]{1,60} might already have been assigned)"
        ),
        explains=(
            "Checked exceptions must be caught or declared, and final variables definitely "
            "assigned; handle exceptions at the right layer, wrap them with context, use "
            "try-with-resources."
        ),
    ),
    Symptom(
        name="spring-bean-missing",
        pattern=(
            r"(?-i:NoSuchBeanDefinitionException"
            r"|UnsatisfiedDependencyException"
            r"|No qualifying bean of type"
            r"|required a bean of type [^\n]{1,120} that could not be found"
            r"|Required a bean of type [^\n]{1,120} that could not be found"
            r"|NoUniqueBeanDefinitionException"
            r"|expected single matching bean but found"
            r"|Expected single matching bean but found)"
        ),
        explains=(
            "Spring cannot wire a dependency: the class lacks @Component/@Service/@Repository, "
            "sits outside the @SpringBootApplication package scan, a conditional bean is off, or "
            "several candidates need @Qualifier or @Primary; prefer constructor injection."
        ),
    ),
    Symptom(
        name="spring-circular-dependency",
        pattern=(
            r"(?-i:BeanCurrentlyInCreationException"
            r"|form a cycle"
            r"|Form a cycle"
            r"|circular reference"
            r"|Circular reference"
            r"|circular references is discouraged"
            r"|Circular references is discouraged)"
        ),
        explains=(
            "Beans depend on each other in a cycle; refactor responsibilities into a third "
            "service, use events, keep constructor injection and avoid field injection and "
            "@Lazy workarounds."
        ),
    ),
    Symptom(
        name="spring-config-binding",
        pattern=(
            r"(?-i:Could not resolve placeholder"
            r"|Failed to bind properties under"
            r"|Failed to configure a DataSource"
            r"|Failed to determine a suitable driver class"
            r"|ConfigDataResourceNotFound"
            r"|'url' attribute is not specified)"
        ),
        explains=(
            "A property or environment variable is missing for the active profile; externalise "
            "configuration, validate it with @ConfigurationProperties and @Validated, provide "
            "test profiles and a datasource or Testcontainers in tests."
        ),
    ),
    Symptom(
        name="spring-context-test",
        pattern=(
            r"(?-i:Failed to load ApplicationContext"
            r"|ApplicationContext failure threshold"
            r"|Unable to find a @SpringBootConfiguration"
            r"|IllegalStateException: Failed to load)"
        ),
        explains=(
            "The Spring test context cannot start: missing beans, config or database; use test "
            "slices (@WebMvcTest, @DataJpaTest), @MockBean/@MockitoBean for collaborators, "
            "Testcontainers and a test profile."
        ),
    ),
    Symptom(
        name="spring-security",
        pattern=(
            r"(?-i:AccessDeniedException"
            r"|Full authentication is required"
            r"|Invalid CSRF [Tt]oken"
            r"|InvalidCsrfTokenException"
            r"|InsufficientAuthenticationException"
            r"|BadCredentialsException)"
        ),
        explains=(
            "Spring Security rejected the request: a SecurityFilterChain rule, role naming "
            "(ROLE_ prefix), missing authentication in tests (@WithMockUser), or CSRF on a "
            "stateless API; configure access control explicitly and least privilege."
        ),
    ),
    Symptom(
        name="spring-transaction",
        pattern=(
            r"(?-i:TransactionRequiredException"
            r"|No EntityManager with actual transaction"
            r"|UnexpectedRollbackException"
            r"|Transaction silently rolled back"
            r"|Executing an update/delete query)"
        ),
        explains=(
            "Code runs outside a transaction or an inner failure marked it rollback-only: "
            "@Transactional on a private method or a self-invocation bypassing the proxy; put "
            "transaction boundaries on public service methods."
        ),
    ),
    Symptom(
        name="spring-data-integrity",
        pattern=(
            r"(?-i:DataIntegrityViolationException"
            r"|ConstraintViolationException"
            r"|could not execute statement"
            r"|Could not execute statement"
            r"|duplicate key value violates unique constraint"
            r"|Duplicate key value violates unique constraint"
            r"|Duplicate entry)"
        ),
        explains=(
            "A database constraint rejected the write: unique key, not-null or foreign key; "
            "validate input with Bean Validation, make writes idempotent (upsert), keep entity "
            "mappings and migrations in sync."
        ),
    ),
    Symptom(
        name="hibernate-lazy-init",
        pattern=(
            r"(?-i:LazyInitializationException"
            r"|could not initialize proxy"
            r"|Could not initialize proxy"
            r"|failed to lazily initialize"
            r"|Failed to lazily initialize)"
        ),
        explains=(
            "A lazy association was loaded after the session closed; use a fetch join or "
            "@EntityGraph, keep access inside @Transactional service methods, map to DTO "
            "projections, disable open-in-view and avoid N+1 queries."
        ),
    ),
    Symptom(
        name="hibernate-entity-state",
        pattern=(
            r"(?-i:TransientObjectException"
            r"|TransientPropertyValueException"
            r"|unsaved transient instance"
            r"|Unsaved transient instance"
            r"|detached entity passed to persist"
            r"|Detached entity passed to persist"
            r"|PersistentObjectException"
            r"|NonUniqueObjectException"
            r"|MultipleBagFetchException"
            r"|cannot simultaneously fetch multiple bags"
            r"|Cannot simultaneously fetch multiple bags)"
        ),
        explains=(
            "The entity lifecycle is misused: saving a parent with unsaved children (cascade), "
            "persist on a detached entity (use merge), or fetching several List bags (use Set "
            "or separate queries); keep ids generated by the database."
        ),
    ),
    Symptom(
        name="jpa-optimistic-lock",
        pattern=(
            r"(?-i:OptimisticLockException"
            r"|ObjectOptimisticLockingFailureException"
            r"|StaleObjectStateException"
            r"|Row was updated or deleted by another transaction)"
        ),
        explains=(
            "Concurrent updates hit the same versioned row; use @Version optimistic locking "
            "deliberately, reload and retry the transaction, keep transactions short, make "
            "handlers idempotent."
        ),
    ),
    Symptom(
        name="jvm-schema-migration",
        pattern=(
            r"(?-i:SchemaManagementException"
            r"|Schema-validation: missing (?:table|column)"
            r"|FlywayException"
            r"|FlywayValidateException"
            r"|Migrations have failed validation"
            r"|Detected applied migration not resolved locally"
            r"|checksum mismatch"
            r"|Checksum mismatch"
            r"|LiquibaseException"
            r"|Validation Failed:[^\n]{0,40}changesets? check ?sum)"
        ),
        explains=(
            "The database schema and entities or migration history diverged: an applied "
            "migration was edited, or ddl-auto is relied on; never edit applied migrations, add "
            "new versioned Flyway or Liquibase migrations, set ddl-auto to validate."
        ),
    ),
    Symptom(
        name="jvm-connection-pool",
        pattern=(
            r"(?-i:HikariPool[^\n]{0,20}Connection is not available"
            r"|Unable to acquire JDBC Connection"
            r"|Connection pool exhausted"
            r"|Cannot get a connection, pool error)"
        ),
        explains=(
            "The connection pool is exhausted: connections leak, transactions are long or "
            "blocked, or the pool is too small; close resources with try-with-resources, keep "
            "transactions short, size the pool and set timeouts."
        ),
    ),
    Symptom(
        name="jackson-mapping",
        pattern=(
            r"(?-i:InvalidDefinitionException"
            r"|No serializer found for class"
            r"|Cannot construct instance of"
            r"|UnrecognizedPropertyException"
            r"|MismatchedInputException"
            r"|HttpMessageNotReadable"
            r"|JsonMappingException"
            r"|InvalidFormatException"
            r"|JsonParseException)"
        ),
        explains=(
            "Jackson cannot map JSON to the class: no default constructor or creator, unknown "
            "properties, wrong types, Java time without JavaTimeModule, Kotlin without "
            "jackson-module-kotlin; use DTOs or records and @JsonIgnoreProperties."
        ),
    ),
    Symptom(
        name="mockito-misuse",
        pattern=(
            r"(?-i:UnnecessaryStubbingException"
            r"|WrongTypeOfReturnValue"
            r"|InvalidUseOfMatchersException"
            r"|Wanted but not invoked"
            r"|Argument\(s\) are different"
            r"|Misplaced or misused argument matcher"
            r"|Cannot mock/spy class"
            r"|NotAMockException"
            r"|MissingMethodInvocationException"
            r"|TooManyActualInvocations"
            r"|Mockito cannot mock)"
        ),
        explains=(
            "Mockito was used incorrectly: unused strict stubs, matchers mixed with raw values "
            "(use eq()), stubbing a final class or a non-mock, wrong verify expectations; keep "
            "stubs minimal, inject mocks via constructors, verify behaviour."
        ),
    ),
    Symptom(
        name="junit-discovery",
        pattern=(
            r"(?-i:No tests found for given includes"
            r"|No tests were found"
            r"|failed to discover tests"
            r"|Failed to discover tests"
            r"|No runnable methods"
            r"|TestEngine with ID [^\n]{1,40} failed)"
        ),
        explains=(
            "The test engine finds no tests: JUnit 4 and JUnit 5 annotations are mixed, the "
            "surefire plugin is outdated, useJUnitPlatform() is missing, or test classes are "
            "not public or misnamed."
        ),
    ),
    Symptom(
        name="maven-dependency-resolution",
        pattern=(
            r"(?-i:Could not resolve dependencies for project"
            r"|Could not find artifact"
            r"|Failed to collect dependencies"
            r"|Non-resolvable parent POM"
            r"|was cached in the local repository"
            r"|Was cached in the local repository"
            r"|Could not transfer artifact"
            r"|Dependency convergence error"
            r"|RequireUpperBoundDeps)"
        ),
        explains=(
            "Maven cannot resolve or converge dependencies: a wrong version, a missing repository "
            "or credentials in settings.xml, a SNAPSHOT not published, conflicting transitive "
            "versions; pin versions in dependencyManagement with a BOM."
        ),
    ),
    Symptom(
        name="gradle-build",
        pattern=(
            r"(?-i:Could not resolve all (?:files|dependencies|artifacts) for configuration"
            r"|Could not find method \w+\(\) for arguments"
            r"|Plugin \[id: '[^'\n]{1,80}'"
            r"|Could not get unknown property"
            r"|Could not resolve [\w.-]+:[\w.-]+:"
            r"|configuration cache problems"
            r"|Configuration cache problems"
            r"|Unresolved reference: libs)"
        ),
        explains=(
            "The Gradle build script or dependency graph is broken: a plugin or artifact version "
            "missing from repositories, Groovy vs Kotlin DSL syntax, a version catalog alias; "
            "pin versions in libs.versions.toml and use the Gradle wrapper."
        ),
    ),
    Symptom(
        name="kotlin-null-safety",
        pattern=(
            r"(?-i:KotlinNullPointerException"
            r"|lateinit property \w+ has not been initialized"
            r"|Lateinit property \w+ has not been initialized"
            r"|Parameter specified as non-null is null"
            r"|Only safe \(\?\.\) or non-null asserted"
            r"|must not be null"
            r"|Must not be null"
            r"|inferred type is [^\n]{1,60}\? but"
            r"|Inferred type is [^\n]{1,60}\? but)"
        ),
        explains=(
            "Kotlin null safety was bypassed: !! on null, an uninitialised lateinit, a Java "
            "platform type returning null; use nullable types with ?. and ?:, requireNotNull, "
            "constructor initialisation, annotate Java APIs."
        ),
    ),
    Symptom(
        name="kotlin-unresolved",
        pattern=(r"(?-i:Unresolved reference)"),
        explains=(
            "Kotlin cannot resolve a name: a missing import or dependency, generated code from "
            "kapt/KSP not built, or a wrong source set; add the dependency and import, enable "
            "the annotation processor plugin."
        ),
    ),
    Symptom(
        name="kotlin-coroutines",
        pattern=(
            r"(?-i:should be called only from a coroutine or another suspend function"
            r"|Should be called only from a coroutine or another suspend function"
            r"|Module with the Main dispatcher is missing"
            r"|UncompletedCoroutinesError"
            r"|This job has not completed yet"
            r"|JobCancellationException)"
        ),
        explains=(
            "Coroutine misuse: calling suspend functions outside a coroutine scope, Main "
            "dispatcher missing in tests, leaked jobs; use structured concurrency, runTest and "
            "Dispatchers.setMain with a test dispatcher, inject dispatchers."
        ),
    ),
    Symptom(
        name="scala-compile",
        pattern=(
            r"(?-i:type mismatch;"
            r"|Type mismatch;"
            r"|could not find implicit value for"
            r"|Could not find implicit value for"
            r"|No given instance of type"
            r"|value \w+ is not a member of"
            r"|Value \w+ is not a member of"
            r"|not found: (?:value|type|object) \w+"
            r"|Not found: (?:value|type|object) \w+"
            r"|match may not be exhaustive"
            r"|Match may not be exhaustive)"
        ),
        explains=(
            "Scala typing failed: a missing implicit or given instance (import the type class "
            "or codec), wrong types, non-exhaustive matches on sealed traits; import instances "
            "explicitly and annotate public types."
        ),
    ),
    Symptom(
        name="scala-sbt-dependency",
        pattern=(
            r"(?-i:sbt\.librarymanagement\.ResolveException"
            r"|unresolved dependency"
            r"|Unresolved dependency"
            r"|Conflicting cross-version suffixes"
            r"|found version conflict"
            r"|Found version conflict"
            r"|NoSuchMethodError: scala\."
            r"|scala\.MatchError)"
        ),
        explains=(
            "Scala binary versions are mixed: artifacts for _2.12, _2.13 and _3 together or "
            "incompatible library versions; use %% for cross-versioned dependencies, align "
            "versions, check evictions; MatchError means a non-exhaustive match."
        ),
    ),
    Symptom(
        name="akka-actors",
        pattern=(
            r"(?-i:AskTimeoutException"
            r"|Ask timed out on"
            r"|dead letters? encountered"
            r"|Dead letters? encountered"
            r"|ActorInitialization"
            r"|InvalidActorNameException"
            r"|is not unique!"
            r"|Is not unique!)"
        ),
        explains=(
            "An actor did not reply or had stopped: blocking inside an actor, a crashed actor "
            "without supervision, short ask timeouts; never block in actors, use pipeTo, "
            "supervision strategies and unique actor names."
        ),
    ),
    # Swift server
    Symptom(
        name="swift-force-unwrap",
        pattern=(
            r"(?-i:Unexpectedly found nil while (?:implicitly )?unwrapping"
            r"|Fatal error: Index out of range"
            r"|must be unwrapped to a value of type"
            r"|Must be unwrapped to a value of type)"
        ),
        explains=(
            "A force unwrap or index hit nil or out of range; use optional binding with guard "
            "let or if let, nil-coalescing ??, and check bounds instead of ! and unchecked "
            "subscripts."
        ),
    ),
    Symptom(
        name="swift-concurrency",
        pattern=(
            r"(?-i:non-sendable type"
            r"|risks causing data races"
            r"|Risks causing data races"
            r"|does not conform to (?:the )?'?Sendable"
            r"|Does not conform to (?:the )?'?Sendable"
            r"|actor-isolated [^\n]{1,80} (?:can not|cannot) be"
            r"|main actor-isolated"
            r"|Main actor-isolated"
            r"|mutation of captured var [^\n]{1,60} in concurrently-executing code"
            r"|Mutation of captured var [^\n]{1,60} in concurrently-executing code)"
        ),
        explains=(
            "Swift strict concurrency found shared mutable state crossing isolation domains; "
            "make types Sendable (value types, final classes with immutable state), protect "
            "state in actors, mark UI code @MainActor, await actor calls."
        ),
    ),
    Symptom(
        name="swift-package-resolution",
        pattern=(
            r"(?-i:Dependencies could not be resolved"
            r"|no versions of [^\n]{1,80} match the requirement"
            r"|No versions of [^\n]{1,80} match the requirement"
            r"|no such module '[^'\n]{1,60}'"
            r"|No such module '[^'\n]{1,60}'"
            r"|product '[^'\n]{1,60}' required by package"
            r"|Product '[^'\n]{1,60}' required by package)"
        ),
        explains=(
            "SwiftPM cannot resolve a dependency or the target does not list the product; add "
            "the package and product to Package.swift target dependencies, use compatible "
            "version ranges, commit Package.resolved."
        ),
    ),
    Symptom(
        name="swift-nio-eventloop",
        pattern=(
            r"(?-i:BUG DETECTED: wait\(\) must not be called when on an EventLoop"
            r"|EventLoopFuture"
            r"|NIOCore\.\w+Error"
            r"|Abort\.\w+"
            r"|FluentError"
            r"|Vapor\.Abort)"
        ),
        explains=(
            "Vapor or SwiftNIO errors: blocking an event loop with wait(), unhandled Abort "
            "responses, database query failures; use async/await, never block event loop "
            "threads, map errors to proper HTTP responses."
        ),
    ),
    # Embedded and robotics
    Symptom(
        name="embedded-linker-region-overflow",
        pattern=(
            "(?-i:region [`'\\\"]?\\w+[`'\\\"]? overflowed by"
            "|Region [`'\\\"]?\\w+[`'\\\"]? overflowed by"
            r"|will not fit in region"
            r"|Will not fit in region"
            r"|section [`'][^\n]{1,40}[`'] will not fit"
            r"|Section [`'][^\n]{1,40}[`'] will not fit"
            r"|Sketch too big"
            r"|Low memory available"
            r"|not enough memory"
            r"|Not enough memory"
            r"|DRAM segment data does not fit"
            r"|IRAM0?[\w.]* overflowed)"
        ),
        explains=(
            "Code or data exceeds the FLASH or RAM region in the linker script; reduce "
            "footprint with -Os and LTO, avoid float printf and large static buffers, keep "
            "constants in flash (const, PROGMEM, F() macro), check the memory map."
        ),
    ),
    Symptom(
        name="embedded-hardfault",
        pattern=(
            r"(?-i:HardFault"
            r"|UsageFault"
            r"|BusFault"
            r"|MemManage"
            r"|stack overflow in task"
            r"|Stack overflow in task"
            r"|StackOverflowHook"
            r"|Stack canary watchpoint triggered"
            r"|CFSR\b)"
        ),
        explains=(
            "The MCU faulted: stack overflow in a task or ISR, null or invalid function pointer, "
            "unaligned access, FPU not enabled; size task stacks, use volatile for shared "
            "ISR data, check pointers, read CFSR and the stacked PC."
        ),
    ),
    Symptom(
        name="esp-guru-meditation",
        pattern=(
            r"(?-i:Guru Meditation Error"
            r"|LoadProhibited"
            r"|StoreProhibited"
            r"|InstrFetchProhibited"
            r"|Task watchdog got triggered"
            r"|Interrupt wdt timeout"
            r"|abort\(\) was called at PC)"
        ),
        explains=(
            "ESP32 crash: null pointer access, task stack overflow, or a task or ISR blocking "
            "too long and tripping the watchdog; increase task stack size, yield with "
            "vTaskDelay, keep ISRs short (IRAM_ATTR), check allocation results."
        ),
    ),
    Symptom(
        name="esp-idf-error-code",
        pattern=(
            r"(?-i:ESP_ERR_\w+"
            r"|ESP_ERROR_CHECK failed"
            r"|esp_err_t"
            r"|Brownout detector was triggered)"
        ),
        explains=(
            "An ESP-IDF API returned an error code: NVS not initialised or needs erase, driver "
            "already installed, invalid config, or unstable power (brownout); check every "
            "esp_err_t, initialise NVS, configure via menuconfig/sdkconfig."
        ),
    ),
    Symptom(
        name="embedded-upload-port",
        pattern=(
            r"(?-i:avrdude:[^\n]{0,80}(?:not in sync|ser_open|programmer is not responding)"
            r"|Failed to connect to ESP32"
            r"|Wrong boot mode detected"
            r"|Could not open port"
            r"|Serial port [^\n]{1,60} not found"
            r"|No DFU capable USB device"
            r"|Error: (?:No )?ST-?LINK"
            r"|Failed uploading"
            r"|Could not find a valid serial port"
            r"|unable to open ftdi device"
            r"|Unable to open ftdi device)"
        ),
        explains=(
            "Flashing failed: wrong serial port or board, driver missing, port busy in a "
            "monitor, boot mode not entered, USB permissions (dialout group), bad cable or "
            "debug probe connection."
        ),
        environment=True,
    ),
    Symptom(
        name="ros2-qos-incompatible",
        pattern=(
            r"(?-i:incompatible QoS"
            r"|Incompatible QoS"
            r"|RELIABILITY_QOS_POLICY"
            r"|DURABILITY_QOS_POLICY"
            r"|QoS policy)"
        ),
        explains=(
            "Publisher and subscriber QoS profiles do not match: reliable vs best_effort, "
            "volatile vs transient_local durability; use sensor data QoS for sensors, "
            "transient_local for latched topics like maps, match history depth."
        ),
    ),
    Symptom(
        name="ros2-tf",
        pattern=(
            r"(?-i:Lookup would require extrapolation"
            r"|lookupTransform argument (?:target|source)_frame"
            r"|Could not find a connection between"
            r"|TF_OLD_DATA"
            r"|TF_REPEATED_DATA"
            r"|Invalid frame ID"
            r"|frame does not exist"
            r"|Frame does not exist"
            r"|TransformException"
            r"|LookupException)"
        ),
        explains=(
            "tf2 cannot transform between frames: a missing static transform publisher, "
            "mismatched timestamps or use_sim_time, wrong frame_id names; publish the full tf "
            "tree, look up with a timeout or latest time, stamp messages consistently."
        ),
    ),
    Symptom(
        name="ros2-package-build",
        pattern=(
            r"(?-i:Package '[^'\n]{1,60}' not found"
            r"|package '[^'\n]{1,60}' not found, searching"
            r"|Package '[^'\n]{1,60}' not found, searching"
            r"|No executable found"
            r"|executable '[^'\n]{1,60}' not found"
            r"|Executable '[^'\n]{1,60}' not found"
            r"|ament_cmake"
            r"|colcon[^\n]{0,40}Failed"
            r"|rosdep[^\n]{0,40}(?:Cannot locate|ERROR))"
        ),
        explains=(
            "A ROS 2 package or executable is not installed in the workspace: source "
            "install/setup.bash after colcon build, declare dependencies in package.xml, install "
            "them with rosdep, register console_scripts or install() rules."
        ),
    ),
    Symptom(
        name="ros2-parameters",
        pattern=(
            r"(?-i:ParameterNotDeclaredException"
            r"|parameter '[^'\n]{1,60}' (?:has not been|is not) declared"
            r"|Parameter '[^'\n]{1,60}' (?:has not been|is not) declared"
            r"|InvalidParameterTypeException"
            r"|ParameterUninitializedException)"
        ),
        explains=(
            "Node parameters must be declared with declare_parameter and a default of the right "
            "type before use; keep parameter YAML names matching the node name and types."
        ),
    ),
    # Blockchain
    Symptom(
        name="solidity-stack-too-deep",
        pattern=(r"(?-i:Stack too deep)"),
        explains=(
            "A function has too many local variables or parameters; group them in structs, "
            "split the function into smaller internal functions, or compile with via-IR and the "
            "optimizer."
        ),
    ),
    Symptom(
        name="solidity-compiler-version",
        pattern=(
            r"(?-i:Source file requires different compiler version"
            r"|No solc version exists that matches"
            r"|Found incompatible (?:Solidity|solc) versions)"
        ),
        explains=(
            "The pragma does not match the configured compiler; pin an exact solc version in "
            "the pragma and in foundry.toml or hardhat.config, keep dependencies on compatible "
            "versions such as OpenZeppelin 5 needing ^0.8.20."
        ),
    ),
    Symptom(
        name="solidity-type-error",
        pattern=(
            r"(?-i:TypeError: [^\n]{0,120}(?:not implicitly convertible|Member \"\w+\" not found"
            r"|Invalid type for argument|Overriding function|missing \"override\"|virtual)"
            r"|DeclarationError: (?:Undeclared identifier|Identifier already declared))"
        ),
        explains=(
            "Solidity typing or inheritance error: explicit conversions between address, "
            "uint and bytes, override and virtual on inherited functions, changed OpenZeppelin "
            "APIs between major versions, visibility and import paths."
        ),
    ),
    Symptom(
        name="solidity-contract-size",
        pattern=(
            r"(?-i:Contract code size (?:exceeds|is)"
            r"|exceeds 24576 bytes"
            r"|Exceeds 24576 bytes"
            r"|max code size"
            r"|Max code size)"
        ),
        explains=(
            "The contract exceeds the EIP-170 24 KB limit; move logic into libraries or "
            "separate contracts, use custom errors instead of revert strings, tune optimizer "
            "runs."
        ),
    ),
    Symptom(
        name="evm-revert",
        pattern=(
            r"(?-i:execution reverted"
            r"|Execution reverted"
            r"|reverted with (?:reason string|custom error|panic code)"
            r"|Reverted with (?:reason string|custom error|panic code)"
            r"|VM Exception while processing transaction"
            r"|EvmError: Revert"
            r"|Transaction reverted"
            r"|CALL_EXCEPTION"
            r"|missing revert data"
            r"|Missing revert data)"
        ),
        explains=(
            "A require, revert or custom error fired: the caller lacked a role or allowance, "
            "state preconditions failed, or the ABI or address is wrong; check access control, "
            "approve before transferFrom, decode custom errors, test with expectRevert."
        ),
    ),
    Symptom(
        name="evm-arithmetic-panic",
        pattern=(
            r"(?-i:arithmetic underflow or overflow"
            r"|Arithmetic underflow or overflow"
            r"|division or modulo by zero"
            r"|Division or modulo by zero"
            r"|array out-of-bounds access"
            r"|Array out-of-bounds access"
            r"|Panic\(\w*\)"
            r"|panic: [^\n]{0,40}\(0x(?:11|12|32)\))"
        ),
        explains=(
            "Solidity 0.8 checked arithmetic or bounds failed: underflow on balances, division "
            "by zero, bad array index; validate inputs, order subtraction after checks, use "
            "unchecked only when proven safe."
        ),
    ),
    Symptom(
        name="openzeppelin-access-control",
        pattern=(
            r"(?-i:OwnableUnauthorizedAccount"
            r"|caller is not the owner"
            r"|Caller is not the owner"
            r"|AccessControlUnauthorizedAccount"
            r"|is missing role"
            r"|Is missing role"
            r"|OwnableInvalidOwner"
            r"|AccessControlBadConfirmation)"
        ),
        explains=(
            "An onlyOwner or onlyRole function was called by the wrong msg.sender; grant roles "
            "in setup, transfer ownership deliberately, impersonate the right account in tests "
            "with vm.prank or startPrank, apply least privilege access control."
        ),
    ),
    Symptom(
        name="openzeppelin-token-errors",
        pattern=(
            r"(?-i:ERC20Insufficient(?:Allowance|Balance)"
            r"|ERC20: (?:insufficient allowance|transfer amount exceeds)"
            r"|ERC721(?:NonexistentToken|InsufficientApproval|IncorrectOwner)"
            r"|ERC721: (?:invalid token ID|caller is not)"
            r"|SafeERC20FailedOperation"
            r"|ReentrancyGuardReentrantCall"
            r"|EnforcedPause"
            r"|Pausable: paused)"
        ),
        explains=(
            "Token preconditions failed: no approve before transferFrom, insufficient balance "
            "(use deal in tests), wrong owner, paused contract or reentrancy; follow "
            "checks-effects-interactions, use SafeERC20 and nonReentrant."
        ),
    ),
    Symptom(
        name="foundry-test-cheatcodes",
        pattern=(
            r"(?-i:call did not revert as expected"
            r"|Call did not revert as expected"
            r"|next call did not revert"
            r"|Next call did not revert"
            r"|Error != expected error"
            r"|expected revert"
            r"|Expected revert"
            r"|log != expected log"
            r"|Log != expected log"
            r"|\[FAIL[.:;] ?(?:Reason|revert|counterexample)"
            r"|Counterexample:"
            r"|vm\.\w+: "
            r"|cheatcode)"
        ),
        explains=(
            "A Foundry test expectation failed: expectRevert must directly precede the call with "
            "the encoded selector, prank applies to one call, fuzz inputs need bound() or "
            "vm.assume; set up balances with deal and time with warp."
        ),
    ),
    Symptom(
        name="foundry-imports",
        pattern=(
            r"(?-i:Source \"[^\"\n]{1,120}\" not found"
            r"|File import callback not supported"
            r"|Unable to resolve imports"
            r"|Failed to resolve file"
            r"|remappings)"
        ),
        explains=(
            "Solidity imports do not resolve: a missing forge install, git submodules not "
            "initialised, or wrong remappings for @openzeppelin and forge-std; keep "
            "remappings.txt and lib versions pinned."
        ),
    ),
    Symptom(
        name="hardhat-config",
        pattern=(
            r"(?-i:HardhatError"
            r"|HH\d{2,3}\b"
            r"|Artifact for contract \"[^\"\n]{1,60}\" not found"
            r"|could not detect network"
            r"|Could not detect network"
            r"|invalid hardhat config"
            r"|Invalid hardhat config"
            r"|HardhatPluginError)"
        ),
        explains=(
            "Hardhat configuration or artifact problem: contracts not compiled, a plugin not "
            "imported, a network url or accounts missing from hardhat.config; compile before "
            "tests and keep network secrets in env vars."
        ),
    ),
    Symptom(
        name="evm-transaction-nonce-gas",
        pattern=(
            r"(?-i:nonce too (?:low|high)"
            r"|Nonce too (?:low|high)"
            r"|replacement transaction underpriced"
            r"|Replacement transaction underpriced"
            r"|insufficient funds for (?:gas|intrinsic)"
            r"|Insufficient funds for (?:gas|intrinsic)"
            r"|intrinsic gas too low"
            r"|Intrinsic gas too low"
            r"|max fee per gas less than block base fee"
            r"|Max fee per gas less than block base fee"
            r"|UNPREDICTABLE_GAS_LIMIT"
            r"|gas required exceeds allowance"
            r"|Gas required exceeds allowance"
            r"|out of gas"
            r"|Out of gas)"
        ),
        explains=(
            "Transaction submission failed: nonces managed concurrently, unfunded accounts, gas "
            "limits or fee settings; serialise nonces per sender, estimate gas, fund test "
            "accounts, handle reverts that make estimation fail."
        ),
    ),
    Symptom(
        name="ethers-abi-encoding",
        pattern=(
            r"(?-i:could not decode result data"
            r"|Could not decode result data"
            r"|code=(?:BAD_DATA|INVALID_ARGUMENT|NUMERIC_FAULT)"
            r"|invalid BigNumber"
            r"|Invalid BigNumber"
            r"|overflow \(fault"
            r"|Overflow \(fault"
            r"|invalid address \(argument"
            r"|Invalid address \(argument"
            r"|no matching (?:function|event)"
            r"|No matching (?:function|event))"
        ),
        explains=(
            "The ABI, address or network is wrong, or numbers are not converted to wei; use "
            "generated typed ABIs, parseUnits/formatUnits with BigInt, checksummed addresses "
            "and the right chain id."
        ),
    ),
    Symptom(
        name="anchor-account-constraint",
        pattern=(
            r"(?-i:AnchorError"
            r"|ConstraintSeeds"
            r"|ConstraintHasOne"
            r"|ConstraintMut"
            r"|ConstraintSigner"
            r"|AccountNotInitialized"
            r"|AccountDidNotDeserialize"
            r"|AccountDiscriminatorMismatch"
            r"|AccountOwnedByWrongProgram"
            r"|DeclaredProgramIdMismatch"
            r"|custom program error"
            r"|Custom program error)"
        ),
        explains=(
            "An Anchor account constraint failed: PDA seeds or bump mismatch, has_one or signer "
            "missing, account not initialised or space too small, program id out of sync "
            "(anchor keys sync); derive PDAs identically on client and program."
        ),
    ),
    Symptom(
        name="solana-transaction",
        pattern=(
            r"(?-i:exceeded CUs meter"
            r"|Exceeded CUs meter"
            r"|Computational budget exceeded"
            r"|insufficient lamports"
            r"|Insufficient lamports"
            r"|Attempt to debit an account but found no record"
            r"|Blockhash not found"
            r"|Transaction simulation failed"
            r"|account data too small"
            r"|Account data too small"
            r"|An account required by the instruction is missing)"
        ),
        explains=(
            "The Solana transaction failed: compute budget exceeded, payer not funded "
            "(airdrop), blockhash expired, missing accounts or rent-exempt space; request "
            "compute units, refresh blockhash and retry, pass all accounts."
        ),
    ),
    Symptom(
        name="move-abilities-abort",
        pattern=(
            r"(?-i:missing ability"
            r"|Missing ability"
            r"|does not have the '(?:copy|drop|key|store)' ability"
            r"|Does not have the '(?:copy|drop|key|store)' ability"
            r"|unused value without (?:a )?'drop'"
            r"|Unused value without (?:a )?'drop'"
            r"|ability constraint not satisfied"
            r"|Ability constraint not satisfied"
            r"|MoveAbort"
            r"|Move abort"
            r"|status ABORTED"
            r"|Status ABORTED"
            r"|RESOURCE_(?:ALREADY_EXISTS|DOES_NOT_EXIST)"
            r"|LINKER_ERROR)"
        ),
        explains=(
            "Move resource rules: structs need copy, drop, key or store abilities and resources "
            "must be moved or destroyed; an abort code is an assert failing, often signer-based "
            "access control or a resource not published; use named error constants."
        ),
    ),
    # Containers and orchestration
    Symptom(
        name="docker-daemon-unreachable",
        pattern=(
            r"(?-i:Cannot connect to the Docker daemon"
            r"|Is the docker daemon running"
            r"|permission denied while trying to connect to the Docker daemon"
            r"|Permission denied while trying to connect to the Docker daemon"
            r"|error during connect"
            r"|Error during connect)"
        ),
        explains=(
            "The Docker daemon is not running or the user cannot access its socket; start the "
            "daemon or Docker Desktop, add the user to the docker group, check DOCKER_HOST and "
            "the context."
        ),
        environment=True,
    ),
    Symptom(
        name="docker-build-context",
        pattern=(
            r"(?-i:COPY failed"
            r"|failed to compute cache key"
            r"|Failed to compute cache key"
            r"|failed to calculate checksum of ref"
            r"|Failed to calculate checksum of ref"
            r"|not found in build context"
            r"|Not found in build context"
            r"|forbidden path outside the build context"
            r"|Forbidden path outside the build context"
            r"|\"/[^\"\n]{1,120}\": not found)"
        ),
        explains=(
            "A COPY or ADD source is missing from the build context: excluded by .dockerignore, "
            "a path relative to the wrong context, or an artifact from a multi-stage build not "
            "produced; keep paths relative to the context root."
        ),
    ),
    Symptom(
        name="docker-build-step",
        pattern=(
            r"(?-i:did not complete successfully: exit code"
            r"|Did not complete successfully: exit code"
            r"|executor failed running"
            r"|Executor failed running"
            r"|returned a non-zero code"
            r"|Returned a non-zero code"
            r"|failed to solve: process"
            r"|Failed to solve: process)"
        ),
        explains=(
            "A RUN step failed inside the image build: unpinned base image or packages changed, "
            "apt-get update not in the same layer as install, missing build tools or lockfile; "
            "pin base image versions and dependencies, never :latest."
        ),
    ),
    Symptom(
        name="docker-image-not-found",
        pattern=(
            r"(?-i:pull access denied"
            r"|Pull access denied"
            r"|manifest unknown"
            r"|Manifest unknown"
            r"|manifest for [^\n]{1,120} not found"
            r"|Manifest for [^\n]{1,120} not found"
            r"|repository does not exist or may require"
            r"|Repository does not exist or may require"
            r"|requested access to the resource is denied"
            r"|Requested access to the resource is denied"
            r"|no basic auth credentials"
            r"|No basic auth credentials"
            r"|unauthorized: authentication required)"
        ),
        explains=(
            "The image reference or registry auth is wrong: a typo, a tag that does not exist "
            "or was deleted, a private registry without docker login; use immutable version "
            "tags or digests and configure registry credentials."
        ),
    ),
    Symptom(
        name="docker-platform-mismatch",
        pattern=(
            r"(?-i:exec format error"
            r"|Exec format error"
            r"|no matching manifest for linux/"
            r"|No matching manifest for linux/"
            r"|does not match the detected host platform"
            r"|Does not match the detected host platform"
            r"|requested image's platform"
            r"|Requested image's platform)"
        ),
        explains=(
            "The image or binary targets another CPU architecture, e.g. amd64 on arm64 Apple "
            "Silicon; build multi-arch images with buildx, set --platform, compile binaries for "
            "the target architecture."
        ),
    ),
    Symptom(
        name="docker-registry-rate-limit",
        pattern=(
            r"(?-i:toomanyrequests"
            r"|reached your pull rate limit"
            r"|Reached your pull rate limit)"
        ),
        explains=(
            "Docker Hub anonymous pull rate limit reached; authenticate, use a registry mirror "
            "or cache, pin and reuse base images."
        ),
        environment=True,
    ),
    Symptom(
        name="docker-entrypoint-exec",
        pattern=(
            r"(?-i:executable file not found in \$PATH"
            r"|Executable file not found in \$PATH"
            r"|OCI runtime (?:create|exec) failed"
            r"|exec user process caused"
            r"|Exec user process caused"
            r"|standard_init_linux"
            r"|exec /[^\n]{1,80}: no such file"
            r"|Exec /[^\n]{1,80}: no such file)"
        ),
        explains=(
            "The container command cannot execute: the binary is missing from the final stage, "
            "a script has CRLF line endings or a bash shebang on alpine, or lacks chmod +x; use "
            "exec-form ENTRYPOINT and copy build outputs explicitly."
        ),
    ),
    Symptom(
        name="docker-compose-config",
        pattern=(
            r"(?-i:Additional property \w+ is not allowed"
            r"|invalid interpolation format"
            r"|Invalid interpolation format"
            r"|variable is not set\. Defaulting to a blank string"
            r"|Variable is not set\. Defaulting to a blank string"
            r"|depends on undefined service"
            r"|Depends on undefined service"
            r"|dependency failed to start"
            r"|Dependency failed to start"
            r"|container [^\n]{1,60} is unhealthy"
            r"|Container [^\n]{1,60} is unhealthy"
            r"|services\.\w+[^\n]{0,40}must be)"
        ),
        explains=(
            "The compose file or startup order is wrong: unset env vars, invalid keys, a "
            "dependency not healthy; define healthchecks, use depends_on with condition "
            "service_healthy, keep variables in an env_file, connect by service name."
        ),
    ),
    Symptom(
        name="infra-yaml-syntax",
        pattern=(
            r"(?-i:mapping values are not allowed"
            r"|Mapping values are not allowed"
            r"|did not find expected (?:key|'-' indicator)"
            r"|Did not find expected (?:key|'-' indicator)"
            r"|found character that cannot start any token"
            r"|Found character that cannot start any token"
            r"|could not find expected ':'"
            r"|Could not find expected ':'"
            r"|cannot unmarshal !!\w+"
            r"|Cannot unmarshal !!\w+"
            r"|found a tab character"
            r"|Found a tab character"
            r"|yaml: line \d+)"
        ),
        explains=(
            "The YAML is malformed: tabs or wrong indentation, an unquoted colon or special "
            "character, a list vs map mismatch; indent with spaces, quote strings, validate "
            "with a schema or linter such as yamllint."
        ),
    ),
    Symptom(
        name="k8s-crashloop",
        pattern=(
            r"(?-i:CrashLoopBackOff"
            r"|Back-off restarting failed container"
            r"|Init:Error"
            r"|RunContainerError)"
        ),
        explains=(
            "The container starts and exits repeatedly: a missing env var, secret or config, a "
            "wrong command, a failing dependency or probe; check logs --previous, validate "
            "config at startup, fail fast with a clear message."
        ),
    ),
    Symptom(
        name="k8s-image-pull",
        pattern=(
            r"(?-i:ImagePullBackOff"
            r"|ErrImagePull"
            r"|ErrImageNeverPull"
            r"|InvalidImageName"
            r"|Failed to pull image)"
        ),
        explains=(
            "The node cannot pull the image: wrong name or tag, private registry without "
            "imagePullSecrets, wrong architecture; push images with immutable version tags and "
            "reference them exactly."
        ),
    ),
    Symptom(
        name="container-oom-killed",
        pattern=(
            r"(?-i:OOMKilled"
            r"|exit code 137"
            r"|Exit code 137"
            r"|exited with code 137"
            r"|Exited with code 137"
            r"|status 137"
            r"|Status 137"
            r"|signal: killed"
            r"|Out of memory: Killed process"
            r"|oom-kill"
            r"|Container killed due to memory)"
        ),
        explains=(
            "The process exceeded its memory limit and was killed: a memory leak, unbounded "
            "buffers or batch sizes, a heap not sized for the container; set resource requests "
            "and limits, stream data, bound caches and concurrency."
        ),
    ),
    Symptom(
        name="k8s-scheduling",
        pattern=(
            r"(?-i:FailedScheduling"
            r"|nodes are available"
            r"|Nodes are available"
            r"|Insufficient (?:cpu|memory)"
            r"|untolerated taint"
            r"|Untolerated taint"
            r"|didn't match Pod's node affinity"
            r"|Didn't match Pod's node affinity"
            r"|unbound immediate PersistentVolumeClaims"
            r"|Unbound immediate PersistentVolumeClaims"
            r"|exceeded quota"
            r"|Exceeded quota"
            r"|must specify limits"
            r"|Must specify limits)"
        ),
        explains=(
            "The pod cannot be scheduled: requests larger than node capacity, node selectors, "
            "taints without tolerations, an unbound PVC or a ResourceQuota requiring limits; set "
            "realistic resource requests and limits and a storage class."
        ),
    ),
    Symptom(
        name="k8s-config-reference",
        pattern=(
            r"(?-i:CreateContainerConfigError"
            r"|CreateContainerError"
            r"|secrets? \"[^\"\n]{1,80}\" not found"
            r"|configmaps? \"[^\"\n]{1,80}\" not found"
            r"|couldn't find key [^\n]{1,60} in"
            r"|Couldn't find key [^\n]{1,60} in)"
        ),
        explains=(
            "A referenced Secret or ConfigMap or key does not exist in the namespace; create "
            "config before the workload, keep names consistent in kustomize or Helm, manage "
            "secrets with a secret manager instead of committing them."
        ),
    ),
    Symptom(
        name="k8s-probe-failure",
        pattern=(
            r"(?-i:Readiness probe failed"
            r"|Liveness probe failed"
            r"|Startup probe failed)"
        ),
        explains=(
            "A health probe fails: wrong port or path, slow startup, or the app binds to "
            "localhost instead of 0.0.0.0; add a startupProbe, tune initialDelaySeconds and "
            "timeouts, keep liveness checks cheap and independent of dependencies."
        ),
    ),
    Symptom(
        name="k8s-eviction",
        pattern=(
            r"(?-i:The node was low on resource"
            r"|Evicted\b"
            r"|DiskPressure"
            r"|MemoryPressure"
            r"|ephemeral-storage)"
        ),
        explains=(
            "The kubelet evicted pods under node pressure: no memory requests, logs or temp "
            "files filling ephemeral storage; set requests and limits, rotate logs, use volumes "
            "for large scratch data."
        ),
    ),
    Symptom(
        name="k8s-service-no-endpoints",
        pattern=(
            r"(?-i:no endpoints available for service"
            r"|No endpoints available for service"
            r"|endpoints \"[^\"\n]{1,80}\" not found"
            r"|Endpoints \"[^\"\n]{1,80}\" not found)"
        ),
        explains=(
            "The Service selector matches no ready pods: labels differ, targetPort is wrong, or "
            "readiness probes fail; keep selector labels and ports consistent across manifests."
        ),
    ),
    Symptom(
        name="k8s-rbac-forbidden",
        pattern=(
            r"(?-i:is forbidden: User \"[^\"\n]{1,120}\" cannot"
            r"|Is forbidden: User \"[^\"\n]{1,120}\" cannot"
            r"|cannot (?:get|list|watch|create|patch|update|delete) resource \"[^\"\n]{1,60}\" in"
            r" API group"
            r"|Cannot (?:get|list|watch|create|patch|update|delete) resource \"[^\"\n]{1,60}\" in"
            r" API group)"
        ),
        explains=(
            "RBAC denies the user or ServiceAccount; grant a Role or ClusterRole with a "
            "RoleBinding for exactly the verbs and resources needed, least privilege, and use a "
            "dedicated ServiceAccount per workload."
        ),
    ),
    Symptom(
        name="k8s-cluster-unreachable",
        pattern=(
            r"(?-i:The connection to the server [^\n]{1,80} was refused"
            r"|Unable to connect to the server"
            r"|no configuration has been provided"
            r"|No configuration has been provided"
            r"|current-context is not set"
            r"|You must be logged in to the server"
            r"|provide credentials"
            r"|Provide credentials)"
        ),
        explains=(
            "kubectl has no reachable cluster or valid credentials: wrong kubeconfig or "
            "context, expired token, cluster not running, VPN off."
        ),
        environment=True,
    ),
    Symptom(
        name="k8s-manifest-invalid",
        pattern=(
            r"(?-i:error validating data"
            r"|Error validating data"
            r"|unknown field \"[^\"\n]{1,80}\""
            r"|Unknown field \"[^\"\n]{1,80}\""
            r"|no matches for kind"
            r"|No matches for kind"
            r"|ensure CRDs are installed first"
            r"|Ensure CRDs are installed first"
            r"|field is immutable"
            r"|Field is immutable"
            r"|is invalid: spec"
            r"|Is invalid: spec)"
        ),
        explains=(
            "The manifest does not match the API schema: a deprecated apiVersion, a CRD not "
            "installed, a typo in a field, or a change to an immutable field like a selector; "
            "validate manifests in CI (kubeconform) and pin API versions."
        ),
    ),
    Symptom(
        name="helm-release-state",
        pattern=(
            r"(?-i:another operation \(install/upgrade/rollback\) is in progress"
            r"|Another operation \(install/upgrade/rollback\) is in progress"
            r"|UPGRADE FAILED"
            r"|INSTALLATION FAILED"
            r"|cannot re-use a name that is still in use"
            r"|Cannot re-use a name that is still in use"
            r"|has no deployed releases"
            r"|Has no deployed releases"
            r"|rendered manifests contain a resource that already exists"
            r"|Rendered manifests contain a resource that already exists"
            r"|timed out waiting for the condition"
            r"|Timed out waiting for the condition)"
        ),
        explains=(
            "The Helm release is stuck or conflicts: a previous upgrade failed or pending, "
            "resources created outside Helm without ownership annotations, pods never ready "
            "under --wait; use --atomic, rollback, and let one tool own each resource."
        ),
    ),
    Symptom(
        name="helm-template",
        pattern=(
            r"(?-i:template: [^\n]{1,80}: executing"
            r"|nil pointer evaluating"
            r"|Nil pointer evaluating"
            r"|function \"\w+\" not defined"
            r"|Function \"\w+\" not defined"
            r"|Chart\.yaml file is missing"
            r"|parse error at"
            r"|Parse error at"
            r"|error converting YAML to JSON"
            r"|Error converting YAML to JSON)"
        ),
        explains=(
            "A chart template failed to render: nested values missing (nil pointer), wrong "
            "indentation with nindent, undefined helpers; give defaults in values.yaml, use "
            "default and required, run helm lint and helm template in CI."
        ),
    ),
    # Infrastructure as code and cloud
    Symptom(
        name="terraform-state-lock",
        pattern=(
            r"(?-i:Error acquiring the state lock"
            r"|state lock"
            r"|State lock"
            r"|Lock Info:"
            r"|The stack is currently locked)"
        ),
        explains=(
            "Another run holds the state lock or a crashed run left it; serialise applies with "
            "CI concurrency controls, use a remote backend with locking, force-unlock only after "
            "confirming no run is active."
        ),
    ),
    Symptom(
        name="terraform-init-providers",
        pattern=(
            r"(?-i:Backend initialization required"
            r"|Inconsistent dependency lock file"
            r"|Required plugins are not installed"
            r"|Failed to query available provider packages"
            r"|Could not retrieve the list of available versions"
            r"|Module not installed"
            r"|run \"terraform init\""
            r"|Run \"terraform init\")"
        ),
        explains=(
            "Providers, modules or the backend are not initialised or do not match the lock "
            "file; run init, commit .terraform.lock.hcl, pin provider versions with "
            "required_providers constraints."
        ),
    ),
    Symptom(
        name="terraform-configuration",
        pattern=(
            r"(?-i:Unsupported argument"
            r"|Missing required argument"
            r"|Unsupported block type"
            r"|Reference to undeclared"
            r"|Unsupported attribute"
            r"|Incorrect attribute value type"
            r"|Invalid value for (?:input )?variable"
            r"|No value for required variable"
            r"|Inconsistent conditional result)"
        ),
        explains=(
            "The HCL does not match the provider or module schema: arguments renamed between "
            "provider versions, wrong types, missing variables; pin provider versions, declare "
            "typed variables with validation, run terraform validate and fmt."
        ),
    ),
    Symptom(
        name="terraform-unknown-values",
        pattern=(
            r"(?-i:Invalid count argument"
            r"|Invalid for_each argument"
            r"|cannot be determined until apply"
            r"|Cannot be determined until apply"
            r"|depends on resource attributes that cannot be determined"
            r"|Depends on resource attributes that cannot be determined"
            r"|Error: Cycle:)"
        ),
        explains=(
            "count or for_each depends on values known only after apply, or resources reference "
            "each other in a cycle; key for_each by static names, split applies, break cycles "
            "with separate rules or data sources."
        ),
    ),
    Symptom(
        name="cloud-resource-already-exists",
        pattern=(
            r"(?-i:EntityAlreadyExists"
            r"|BucketAlreadyExists"
            r"|BucketAlreadyOwnedByYou"
            r"|ResourceExistsExc"
            r"|already exists and is not managed"
            r"|Already exists and is not managed"
            r"|ResourceAlreadyExists"
            r"|AlreadyExists\b"
            r"|Duplicate resource URN"
            r"|409 Conflict)"
        ),
        explains=(
            "The resource exists outside the IaC state: created manually, by another stack, or "
            "left by a failed run; import it into state, use unique name prefixes per "
            "environment, avoid drift by managing resources only in code."
        ),
    ),
    Symptom(
        name="pulumi-stack",
        pattern=(
            r"(?-i:error: update failed"
            r"|error: preview failed"
            r"|no stack named"
            r"|No stack named"
            r"|PULUMI_CONFIG_PASSPHRASE"
            r"|passphrase must be set"
            r"|Passphrase must be set"
            r"|Missing required configuration variable"
            r"|pending operations"
            r"|Pending operations"
            r"|pulumi:pulumi:Stack)"
        ),
        explains=(
            "Pulumi stack setup or state is wrong: stack not selected, config or secrets missing "
            "(pulumi config set --secret), interrupted update leaving pending operations; run "
            "refresh, cancel, keep resource names unique."
        ),
    ),
    Symptom(
        name="aws-credentials",
        pattern=(
            r"(?-i:Unable to locate credentials"
            r"|NoCredentialProviders"
            r"|No valid credential sources"
            r"|ExpiredToken"
            r"|security token included in the request is (?:invalid|expired)"
            r"|Security token included in the request is (?:invalid|expired)"
            r"|InvalidClientTokenId"
            r"|SignatureDoesNotMatch"
            r"|failed to refresh cached credentials"
            r"|Failed to refresh cached credentials"
            r"|The SSO session[^\n]{0,40}expired"
            r"|Token has expired)"
        ),
        explains=(
            "No valid AWS credentials: expired SSO session or token, wrong AWS_PROFILE, clock "
            "skew, missing role in CI; log in again, use OIDC role assumption in CI, never "
            "hardcode access keys."
        ),
        environment=True,
    ),
    Symptom(
        name="aws-access-denied",
        pattern=(
            r"(?-i:AccessDenied"
            r"|is not authorized to perform"
            r"|Is not authorized to perform"
            r"|UnauthorizedOperation"
            r"|explicit deny"
            r"|Explicit deny"
            r"|AuthorizationError)"
        ),
        explains=(
            "The IAM principal lacks permission: an action or resource ARN missing from the "
            "policy, an explicit deny, SCP, bucket or KMS key policy; grant least privilege "
            "policies for exactly the needed actions and resources."
        ),
    ),
    Symptom(
        name="gcp-auth-permission",
        pattern=(
            r"(?-i:PERMISSION_DENIED"
            r"|IAM_PERMISSION_DENIED"
            r"|caller does not have permission"
            r"|Caller does not have permission"
            r"|could not find default credentials"
            r"|Could not find default credentials"
            r"|Application Default Credentials"
            r"|has not been used in project"
            r"|Has not been used in project"
            r"|SERVICE_DISABLED"
            r"|Permission '[\w.]+' denied)"
        ),
        explains=(
            "Google Cloud denied the call: no application default credentials, the service "
            "account lacks an IAM role, or the API is not enabled; grant least privilege "
            "roles, enable APIs in IaC, use workload identity instead of key files."
        ),
    ),
    Symptom(
        name="azure-auth-permission",
        pattern=(
            r"(?-i:AuthorizationFailed"
            r"|does not have authorization to perform action"
            r"|Does not have authorization to perform action"
            r"|AADSTS\d+"
            r"|DefaultAzureCredential failed"
            r"|Please run 'az login'"
            r"|InvalidAuthenticationToken)"
        ),
        explains=(
            "Azure rejected the identity: not logged in, token expired, or no role assignment "
            "at the needed scope; assign least privilege RBAC roles, use managed identity or "
            "federated credentials in CI."
        ),
    ),
    Symptom(
        name="s3-bucket-errors",
        pattern=(
            r"(?-i:NoSuchBucket"
            r"|NoSuchKey"
            r"|specified (?:bucket|key) does not exist"
            r"|Specified (?:bucket|key) does not exist"
            r"|PermanentRedirect"
            r"|AuthorizationHeaderMalformed"
            r"|IllegalLocationConstraint"
            r"|InvalidBucketName"
            r"|AccessControlListNotSupported"
            r"|bucket does not allow ACLs"
            r"|Bucket does not allow ACLs"
            r"|BucketNotEmpty)"
        ),
        explains=(
            "S3 request mismatch: wrong bucket name, key or prefix, wrong region endpoint, ACLs "
            "on a bucket with owner-enforced ownership; configure region explicitly, use bucket "
            "policies and presigned URLs instead of ACLs, keep block public access."
        ),
    ),
    Symptom(
        name="cloud-throttling",
        pattern=(
            r"(?-i:ThrottlingException"
            r"|Rate exceeded"
            r"|TooManyRequestsException"
            r"|RequestLimitExceeded"
            r"|ProvisionedThroughputExceeded"
            r"|SlowDown: Please"
            r"|429 Too Many Requests"
            r"|rate limit exceeded"
            r"|Rate limit exceeded"
            r"|RESOURCE_EXHAUSTED"
            r"|Quota exceeded"
            r"|LimitExceededException)"
        ),
        explains=(
            "The API rate limit or quota was hit; retry with exponential backoff and jitter, "
            "batch requests, cache results, limit concurrency, request quota increases."
        ),
    ),
    Symptom(
        name="aws-lambda",
        pattern=(
            r"(?-i:Task timed out after"
            r"|Runtime\.(?:ImportModuleError|HandlerNotFound|ExitError)"
            r"|Unable to import module"
            r"|Unzipped size must be smaller"
            r"|RequestEntityTooLarge)"
        ),
        explains=(
            "The Lambda package or handler is wrong or too slow: dependencies not bundled for "
            "the runtime architecture, a wrong handler path, timeout or memory too low; package "
            "with layers or containers, set timeouts, keep handlers idempotent."
        ),
    ),
    Symptom(
        name="aws-cloudformation",
        pattern=(
            r"(?-i:ROLLBACK_COMPLETE"
            r"|UPDATE_ROLLBACK_FAILED"
            r"|ROLLBACK_IN_PROGRESS"
            r"|CREATE_FAILED"
            r"|No updates are to be performed"
            r"|cdk bootstrap"
            r"|Cdk bootstrap"
            r"|Resource handler returned message)"
        ),
        explains=(
            "A CloudFormation or CDK stack failed and rolled back; read the first failing "
            "resource event, delete stacks stuck in ROLLBACK_COMPLETE, bootstrap CDK per "
            "account and region, avoid manual drift."
        ),
    ),
    # CI
    Symptom(
        name="gha-workflow-invalid",
        pattern=(
            r"(?-i:Invalid workflow file"
            r"|The workflow is not valid"
            r"|Unrecognized named-value"
            r"|Unable to resolve action"
            r"|Can't find 'action\.ya?ml'"
            r"|An action could not be found"
            r"|Required property is missing"
            r"|Unexpected value '[^'\n]{1,60}')"
        ),
        explains=(
            "The GitHub Actions workflow is invalid: YAML indentation, wrong ${{ }} expression "
            "contexts, an action ref that does not exist; pin actions to a release tag or commit "
            "SHA, validate workflows with actionlint."
        ),
    ),
    Symptom(
        name="gha-token-permissions",
        pattern=(
            r"(?-i:Resource not accessible by integration"
            r"|denied to github-actions\[bot\]"
            r"|Denied to github-actions\[bot\]"
            r"|refusing to allow a (?:GitHub App|Personal Access Token|OAuth App) to create or"
            r" update workflow"
            r"|Refusing to allow a (?:GitHub App|Personal Access Token|OAuth App) to create or"
            r" update workflow"
            r"|Write access to repository not granted)"
        ),
        explains=(
            "GITHUB_TOKEN lacks a scope: declare least privilege permissions per job (contents: "
            "write, pull-requests: write, id-token: write); forks get read-only tokens and no "
            "secrets."
        ),
    ),
    Symptom(
        name="ci-cloud-oidc",
        pattern=(
            r"(?-i:Could not assume role with OIDC"
            r"|AssumeRoleWithWebIdentity"
            r"|ACTIONS_ID_TOKEN_REQUEST"
            r"|Credentials could not be loaded"
            r"|Input required and not supplied)"
        ),
        explains=(
            "CI cannot obtain cloud credentials: missing id-token: write permission, the OIDC "
            "trust policy subject does not match the repository or branch, or a secret input "
            "is empty (secrets are absent for forks and unset environments)."
        ),
    ),
    Symptom(
        name="ci-runner-timeout",
        pattern=(
            r"(?-i:has exceeded the maximum execution time"
            r"|Has exceeded the maximum execution time"
            r"|The operation was canceled"
            r"|received a shutdown signal"
            r"|Received a shutdown signal"
            r"|lost communication with the server"
            r"|Lost communication with the server"
            r"|No runner matching the specified labels"
            r"|This job is stuck because"
            r"|execution took longer than"
            r"|Execution took longer than)"
        ),
        explains=(
            "The CI job hit a timeout or lost its runner: slow or hanging tests, missing "
            "dependency caching, no runner with matching tags; set timeout-minutes, cache "
            "dependencies, use concurrency groups, fail fast on hung tests."
        ),
    ),
    Symptom(
        name="ci-cache-artifact",
        pattern=(
            r"(?-i:Unable to reserve cache"
            r"|Cache not found for input keys"
            r"|Artifact not found for name"
            r"|No files were found with the provided path"
            r"|artifact with this name already exists"
            r"|Artifact with this name already exists)"
        ),
        explains=(
            "Cache or artifact keys and paths do not match between jobs; key caches on "
            "hashFiles of the lockfile, give artifacts unique names per matrix job, upload and "
            "download the same path."
        ),
    ),
    Symptom(
        name="gitlab-ci-config",
        pattern=(
            r"(?-i:This GitLab CI configuration is invalid"
            r"|jobs config should contain at least one visible job"
            r"|Jobs config should contain at least one visible job"
            r"|contains unknown keys"
            r"|Contains unknown keys"
            r"|jobs:[\w-]+[^\n]{0,40}config should"
            r"|undefined need"
            r"|Undefined need"
            r"|needs[^\n]{0,40}not defined"
            r"|Included file [^\n]{1,80} (?:is empty|does not))"
        ),
        explains=(
            "The .gitlab-ci.yml is invalid: unknown keys, needs referencing jobs excluded by "
            "rules, broken include or extends; lint with the CI lint API, use rules instead of "
            "only/except, keep stages declared."
        ),
    ),
    # Git and hosting
    Symptom(
        name="git-push-rejected",
        pattern=(
            r"(?-i:\[rejected\]"
            r"|Updates were rejected because"
            r"|non-fast-forward"
            r"|failed to push some refs"
            r"|Failed to push some refs"
            r"|tip of your current branch is behind"
            r"|Tip of your current branch is behind)"
        ),
        explains=(
            "The remote has commits the local branch lacks; fetch and rebase or merge before "
            "pushing, never force-push shared branches, use --force-with-lease only on your own "
            "branches."
        ),
    ),
    Symptom(
        name="git-protected-branch",
        pattern=(
            r"(?-i:protected branch hook declined"
            r"|Protected branch hook declined"
            r"|Protected branch update failed"
            r"|pre-receive hook declined"
            r"|GH006"
            r"|GH013"
            r"|Repository rule violations"
            r"|Changes must be made through a pull request"
            r"|Commits must have verified signatures)"
        ),
        explains=(
            "Branch protection or repository rules reject the push: direct pushes to main, "
            "required reviews or status checks, unsigned commits or detected secrets; work on a "
            "feature branch and open a pull request."
        ),
    ),
    Symptom(
        name="git-merge-conflict",
        pattern=(
            r"(?-i:CONFLICT \("
            r"|Automatic merge failed"
            r"|Merge conflict in"
            r"|fix conflicts and then commit"
            r"|Fix conflicts and then commit"
            r"|could not apply"
            r"|Could not apply"
            r"|You have unmerged paths"
            r"|needs merge"
            r"|Needs merge"
            r"|Resolve all conflicts manually)"
        ),
        explains=(
            "Both branches changed the same lines; rebase often on the main branch, keep "
            "commits small and focused, resolve conflict markers and rerun tests before "
            "continuing."
        ),
    ),
    Symptom(
        name="git-dirty-worktree",
        pattern=(
            r"(?-i:Your local changes to the following files would be overwritten"
            r"|Please commit your changes or stash them"
            r"|untracked working tree files would be overwritten"
            r"|Untracked working tree files would be overwritten"
            r"|You have unstaged changes"
            r"|cannot (?:pull|rebase) with rebase"
            r"|Cannot (?:pull|rebase) with rebase)"
        ),
        explains=(
            "Uncommitted changes block the operation; commit or stash first, keep generated "
            "files and build outputs in .gitignore."
        ),
    ),
    Symptom(
        name="git-auth",
        pattern=(
            r"(?-i:Permission denied \(publickey"
            r"|permission denied \(publickey"
            r"|Authentication failed for"
            r"|could not read Username for"
            r"|Could not read Username for"
            r"|Support for password authentication was removed"
            r"|Could not read from remote repository"
            r"|Repository not found"
            r"|Invalid username or password)"
        ),
        explains=(
            "The remote rejects the credentials: no SSH key loaded, HTTPS without a personal "
            "access token or credential helper, or no access to the repository."
        ),
        environment=True,
    ),
    Symptom(
        name="git-ref-problems",
        pattern=(
            r"(?-i:pathspec '[^'\n]{1,80}' did not match"
            r"|Pathspec '[^'\n]{1,80}' did not match"
            r"|unknown revision or path not in the working tree"
            r"|Unknown revision or path not in the working tree"
            r"|couldn't find remote ref"
            r"|Couldn't find remote ref"
            r"|refusing to merge unrelated histories"
            r"|Refusing to merge unrelated histories"
            r"|src refspec [^\n]{1,60} does not match any"
            r"|Src refspec [^\n]{1,60} does not match any"
            r"|detached HEAD"
            r"|Detached HEAD"
            r"|not a valid object name"
            r"|Not a valid object name)"
        ),
        explains=(
            "A branch, tag or commit is missing locally: main vs master naming, a shallow CI "
            "clone (fetch-depth: 0), tags not fetched, or no commit yet; fetch the refs needed "
            "and use the right default branch."
        ),
    ),
    Symptom(
        name="git-not-a-repository",
        pattern=(
            r"(?-i:not a git repository"
            r"|Not a git repository"
            r"|detected dubious ownership in repository"
            r"|Detected dubious ownership in repository)"
        ),
        explains=(
            "The command runs outside a repository or in one owned by another user; run in the "
            "checkout directory, mark it safe.directory in containers and CI."
        ),
        environment=True,
    ),
    Symptom(
        name="git-hooks-precommit",
        pattern=(
            r"(?-i:husky - "
            r"|Husky - "
            r"|lint-staged"
            r"|files were modified by this hook"
            r"|Files were modified by this hook"
            r"|hook id: [\w-]+"
            r"|Hook id: [\w-]+"
            r"|pre-commit hook (?:failed|exited)"
            r"|hook was ignored because it's not set as executable"
            r"|Hook was ignored because it's not set as executable"
            r"|hook exited with"
            r"|Hook exited with)"
        ),
        explains=(
            "A git hook ran linters, formatters or tests and they failed or rewrote files; fix "
            "the reported lint errors, stage the formatted files, make hooks executable, do not "
            "bypass checks with --no-verify."
        ),
    ),
    Symptom(
        name="git-commitlint",
        pattern=(
            r"(?-i:subject may not be empty"
            r"|Subject may not be empty"
            r"|type may not be empty"
            r"|Type may not be empty"
            r"|type must be one of"
            r"|Type must be one of"
            r"|header must not be longer than"
            r"|Header must not be longer than"
            r"|subject must not be sentence-case"
            r"|Subject must not be sentence-case"
            r"|commitlint"
            r"|scope must be"
            r"|Scope must be)"
        ),
        explains=(
            "The commit message breaks Conventional Commits: use type(scope): subject with an "
            "allowed lowercase type (feat, fix, chore, docs), imperative mood and a short header."
        ),
    ),
    Symptom(
        name="git-large-files-lfs",
        pattern=(
            r"(?-i:exceeds GitHub's file size limit"
            r"|Exceeds GitHub's file size limit"
            r"|GH001"
            r"|Large files detected"
            r"|git-lfs"
            r"|Git LFS"
            r"|should have been pointers"
            r"|Should have been pointers"
            r"|smudge filter lfs failed"
            r"|Smudge filter lfs failed"
            r"|over its data quota"
            r"|Over its data quota"
            r"|pack exceeds maximum allowed size"
            r"|Pack exceeds maximum allowed size)"
        ),
        explains=(
            "Large binaries are committed or LFS is misconfigured; track large files with Git "
            "LFS via .gitattributes, keep build artifacts and data out of git with .gitignore, "
            "rewrite history to remove committed blobs."
        ),
    ),
    Symptom(
        name="git-signing",
        pattern=(
            r"(?-i:gpg failed to sign the data"
            r"|Gpg failed to sign the data"
            r"|secret key not available"
            r"|Secret key not available"
            r"|no signing key"
            r"|No signing key"
            r"|Couldn't load public key"
            r"|signing failed"
            r"|Signing failed"
            r"|error: Load key)"
        ),
        explains=(
            "Commit signing is configured but the key or agent is unavailable: set "
            "user.signingkey and gpg.format, export GPG_TTY, start the gpg or ssh agent."
        ),
        environment=True,
    ),
    Symptom(
        name="git-secret-detected",
        pattern=(
            r"(?-i:Push cannot contain secrets"
            r"|secret scanning"
            r"|Secret scanning"
            r"|detected secrets"
            r"|Detected secrets"
            r"|leaks found"
            r"|Leaks found"
            r"|gitleaks"
            r"|trufflehog"
            r"|Potential secrets about to be committed)"
        ),
        explains=(
            "A credential was committed; never commit secrets, load them from environment "
            "variables or a secret manager, keep .env files in .gitignore, rotate the leaked key "
            "and rewrite history."
        ),
    ),
    # Shell and Unix
    Symptom(
        name="shell-command-not-found",
        pattern=(
            r"(?-i:: command not found"
            r"|: not found$"
            r"|is not recognized as an internal or external command"
            r"|Is not recognized as an internal or external command"
            r"|No such file or directory: '[\w./-]+'$"
            r"|no such file or directory: '[\w./-]+'$)"
        ),
        explains=(
            "The tool is not installed or not on PATH, or a virtualenv or toolchain is not "
            "activated; install dependencies declared by the project, use absolute paths or "
            "the project's runner scripts."
        ),
        environment=True,
    ),
    Symptom(
        name="shell-permission-denied",
        pattern=(
            r"(?-i:Permission denied"
            r"|permission denied"
            r"|EACCES"
            r"|Operation not permitted"
            r"|operation not permitted"
            r"|EPERM\b)"
        ),
        explains=(
            "The user lacks file or directory permission: a script without chmod +x, files "
            "owned by root from a container or sudo, writing to a system path; fix ownership "
            "and file modes, run as a non-root user with least privilege."
        ),
        environment=True,
    ),
    Symptom(
        name="shell-file-missing",
        pattern=(
            r"(?-i:No such file or directory"
            r"|no such file or directory"
            r"|ENOENT"
            r"|cannot stat '"
            r"|Cannot stat '"
            r"|cannot access '"
            r"|Cannot access ')"
        ),
        explains=(
            "A path does not exist: a relative path from the wrong working directory, a missing "
            "input or build artifact, a typo; resolve paths relative to the script, check "
            "inputs early."
        ),
        environment=True,
    ),
    Symptom(
        name="bash-syntax",
        pattern=(
            r"(?-i:syntax error near unexpected token"
            r"|Syntax error near unexpected token"
            r"|unexpected EOF while looking for matching"
            r"|Unexpected EOF while looking for matching"
            r"|integer expression expected"
            r"|Integer expression expected"
            r"|binary operator expected"
            r"|Binary operator expected"
            r"|ambiguous redirect"
            r"|Ambiguous redirect"
            r"|bad substitution"
            r"|Bad substitution"
            r"|unary operator expected"
            r"|Unary operator expected"
            r"|\[: too many arguments)"
        ),
        explains=(
            "A shell script breaks on word splitting or syntax: unquoted variables, [ ] with "
            "empty values, bash features run by sh; quote every variable, use [[ ]], a bash "
            "shebang, set -euo pipefail and shellcheck."
        ),
    ),
    Symptom(
        name="bash-unbound-variable",
        pattern=(
            r"(?-i:unbound variable"
            r"|Unbound variable"
            r"|parameter null or not set"
            r"|Parameter null or not set)"
        ),
        explains=(
            "set -u stopped on an unset variable: a missing environment variable or argument; "
            "provide defaults with ${VAR:-default}, validate required env vars at the top of "
            "the script."
        ),
    ),
    Symptom(
        name="shell-crlf-line-endings",
        pattern=(
            r"(?-i:\$'\\r': command not found"
            r"|bad interpreter"
            r"|Bad interpreter"
            r"|\^M"
            r"|\\r': No such file)"
        ),
        explains=(
            "The script has Windows CRLF line endings; enforce LF with .gitattributes (eol=lf), "
            "an editorconfig, and dos2unix in builds."
        ),
    ),
    Symptom(
        name="shellcheck",
        pattern=(r"(?-i:SC\d{4}\b)"),
        explains=(
            "shellcheck rule: quote variables to prevent word splitting and globbing, use $( ) "
            "not backticks, check cd failures, use arrays for argument lists."
        ),
    ),
    Symptom(
        name="process-terminated-signal",
        pattern=(
            r"(?-i:exit (?:code|status) 143"
            r"|Exit (?:code|status) 143"
            r"|SIGTERM"
            r"|SIGKILL"
            r"|terminated by signal"
            r"|Terminated by signal"
            r"|Killed by signal"
            r"|signal: terminated"
            r"|Terminated$)"
        ),
        explains=(
            "The process was stopped by a signal: a timeout, the orchestrator shutting it down, "
            "or the OOM killer; handle SIGTERM for graceful shutdown, trap cleanup in scripts, "
            "keep work idempotent so it can be retried."
        ),
    ),
    Symptom(
        name="broken-pipe",
        pattern=(
            r"(?-i:Broken pipe"
            r"|broken pipe"
            r"|EPIPE"
            r"|SIGPIPE"
            r"|BrokenPipeError)"
        ),
        explains=(
            "The reader closed the pipe or socket early, e.g. head or a client disconnecting; "
            "handle EPIPE gracefully, check client connections, avoid pipefail with head."
        ),
    ),
    Symptom(
        name="resource-limits-fds",
        pattern=(
            r"(?-i:Too many open files"
            r"|too many open files"
            r"|EMFILE"
            r"|ENFILE"
            r"|fork: retry"
            r"|Resource temporarily unavailable"
            r"|resource temporarily unavailable"
            r"|Cannot allocate memory"
            r"|cannot allocate memory"
            r"|pthread_create failed"
            r"|unable to create native thread"
            r"|Unable to create native thread)"
        ),
        explains=(
            "A process limit was hit: file descriptors or sockets leaked, too many threads or "
            "processes; close files and connections (context managers, defer), pool "
            "connections, bound concurrency, raise ulimit or LimitNOFILE deliberately."
        ),
    ),
    Symptom(
        name="file-watcher-limit",
        pattern=(
            r"(?-i:inotify watch limit reached"
            r"|Inotify watch limit reached"
            r"|System limit for number of file watchers"
            r"|max_user_watches)"
        ),
        explains=(
            "The inotify watch limit is exhausted by file watchers; exclude node_modules and "
            "build dirs from watching or raise fs.inotify.max_user_watches."
        ),
        environment=True,
    ),
    Symptom(
        name="disk-full",
        pattern=(
            r"(?-i:No space left on device"
            r"|no space left on device"
            r"|disk quota exceeded"
            r"|Disk quota exceeded"
            r"|not enough space on the disk"
            r"|Not enough space on the disk"
            r"|ENOSPC\b)"
        ),
        explains=(
            "The disk or quota is full: build caches, docker images, logs or temp files; "
            "prune caches and images, rotate logs, clean temp files."
        ),
        environment=True,
    ),
    Symptom(
        name="systemd-unit",
        pattern=(
            r"(?-i:Job for [^\n]{1,80}\.service failed"
            r"|Failed to start [^\n]{1,80}\.service"
            r"|Main process exited, code="
            r"|start request repeated too quickly"
            r"|Start request repeated too quickly"
            r"|status=\d+/(?:EXEC|USER|CHDIR|NAMESPACE)"
            r"|Unit [^\n]{1,60}\.service (?:not found|could not be found)"
            r"|Failed with result ')"
        ),
        explains=(
            "The systemd service fails: ExecStart not an absolute path or not executable, "
            "wrong User or WorkingDirectory, environment not loaded (EnvironmentFile), crash "
            "loop with Restart; check journalctl -u, run daemon-reload after edits."
        ),
    ),
    Symptom(
        name="cron-job",
        pattern=(
            r"(?-i:errors in crontab file"
            r"|Errors in crontab file"
            r"|bad (?:minute|hour|day-of-month|month|day-of-week)"
            r"|Bad (?:minute|hour|day-of-month|month|day-of-week)"
            r"|\(CRON\)[^\n]{0,60}(?:error|ERROR)"
            r"|No MTA installed)"
        ),
        explains=(
            "Cron runs with a minimal environment and shell: commands need absolute paths and "
            "PATH, % must be escaped, timezone may differ; redirect output to logs and use flock "
            "to prevent overlapping runs."
        ),
    ),
    Symptom(
        name="ssh-host-key-permissions",
        pattern=(
            r"(?-i:Host key verification failed"
            r"|REMOTE HOST IDENTIFICATION HAS CHANGED"
            r"|UNPROTECTED PRIVATE KEY FILE"
            r"|are too open"
            r"|Are too open"
            r"|Too many authentication failures"
            r"|no matching host key type found"
            r"|No matching host key type found"
            r"|kex_exchange_identification)"
        ),
        explains=(
            "SSH rejects the connection: unknown or changed host key (known_hosts, ssh-keyscan "
            "in CI), private key permissions not 600, too many agent keys, or an old key type."
        ),
        environment=True,
    ),
    Symptom(
        name="sudo-noninteractive",
        pattern=(
            r"(?-i:sudo: a terminal is required"
            r"|sudo: no tty present"
            r"|is not in the sudoers file"
            r"|Is not in the sudoers file"
            r"|sudo: a password is required)"
        ),
        explains=(
            "sudo needs a password or terminal in a non-interactive context; avoid sudo in "
            "scripts and CI, run with the right user, or configure narrow NOPASSWD rules."
        ),
        environment=True,
    ),
    Symptom(
        name="locale-missing",
        pattern=(
            r"(?-i:cannot change locale"
            r"|Cannot change locale"
            r"|Setting locale failed"
            r"|unsupported locale setting"
            r"|Unsupported locale setting)"
        ),
        explains=(
            "The locale is not generated on the machine or container; set LANG and LC_ALL to "
            "C.UTF-8 or generate the locale, keep UTF-8 encoding explicit."
        ),
        environment=True,
    ),
    # Networking
    Symptom(
        name="net-port-in-use",
        pattern=(
            r"(?-i:address already in use"
            r"|Address already in use"
            r"|EADDRINUSE"
            r"|port is already allocated"
            r"|Port is already allocated"
            r"|Port \d+ (?:is|was) already in use"
            r"|Only one usage of each socket address"
            r"|errno 98"
            r"|Errno 98)"
        ),
        explains=(
            "Another process already listens on the port, often a previous run still alive; stop "
            "it, choose a free or configurable port, use port 0 in tests, close servers in "
            "teardown."
        ),
        environment=True,
    ),
    Symptom(
        name="net-connection-refused",
        pattern=(
            r"(?-i:Connection refused"
            r"|connection refused"
            r"|ECONNREFUSED"
            r"|actively refused"
            r"|Actively refused"
            r"|Could not connect to server)"
        ),
        explains=(
            "Nothing listens at the host and port: the service is not started, wrong port, "
            "localhost inside a container instead of the service name, or not ready yet; wait "
            "for readiness and retry with backoff."
        ),
        environment=True,
    ),
    Symptom(
        name="net-dns-resolution",
        pattern=(
            r"(?-i:Could not resolve host"
            r"|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)"
            r"|Getaddrinfo (?:ENOTFOUND|EAI_AGAIN)"
            r"|Name or service not known"
            r"|name or service not known"
            r"|Temporary failure in name resolution"
            r"|temporary failure in name resolution"
            r"|no such host"
            r"|No such host"
            r"|nodename nor servname"
            r"|Nodename nor servname"
            r"|UnknownHostException"
            r"|NXDOMAIN"
            r"|server misbehaving"
            r"|Server misbehaving"
            r"|Could not resolve hostname)"
        ),
        explains=(
            "The host name does not resolve: offline, DNS misconfigured, a typo, or a container "
            "or cluster service name used outside its network."
        ),
        environment=True,
    ),
    Symptom(
        name="net-timeout",
        pattern=(
            r"(?-i:ETIMEDOUT"
            r"|Connection timed out"
            r"|connection timed out"
            r"|Operation timed out"
            r"|operation timed out"
            r"|i/o timeout"
            r"|Read timed out"
            r"|read timed out"
            r"|SocketTimeoutException"
            r"|ConnectTimeoutException"
            r"|ESOCKETTIMEDOUT)"
        ),
        explains=(
            "The peer did not answer in time: a firewall or security group drops traffic, the "
            "service is overloaded or slow; set explicit timeouts, retry with exponential "
            "backoff, check network rules."
        ),
        environment=True,
    ),
    Symptom(
        name="net-unreachable-reset",
        pattern=(
            r"(?-i:Network is unreachable"
            r"|network is unreachable"
            r"|ENETUNREACH"
            r"|No route to host"
            r"|no route to host"
            r"|EHOSTUNREACH"
            r"|Connection reset by peer"
            r"|connection reset by peer"
            r"|ECONNRESET"
            r"|socket hang up"
            r"|Socket hang up)"
        ),
        explains=(
            "The network path is down or the peer dropped the connection: offline machine, "
            "proxy or load balancer idle timeouts shorter than keep-alive, server crash; retry "
            "idempotent requests with backoff."
        ),
        environment=True,
    ),
    Symptom(
        name="tls-certificate-verify",
        pattern=(
            r"(?-i:certificate verify failed"
            r"|Certificate verify failed"
            r"|self[- ]signed certificate"
            r"|unable to get local issuer"
            r"|Unable to get local issuer"
            r"|certificate signed by unknown authority"
            r"|Certificate signed by unknown authority"
            r"|PKIX path building failed"
            r"|SSL certificate problem"
            r"|CERT_HAS_EXPIRED"
            r"|UNABLE_TO_VERIFY_LEAF_SIGNATURE"
            r"|certificate has expired"
            r"|Certificate has expired"
            r"|certificate is valid for"
            r"|Certificate is valid for"
            r"|Hostname mismatch"
            r"|ERR_CERT_)"
        ),
        explains=(
            "The TLS certificate chain cannot be verified: a missing CA bundle, a corporate "
            "proxy re-signing traffic, an incomplete intermediate chain, expired certs or a "
            "hostname mismatch; install the CA, fix the chain, never disable verification."
        ),
        environment=True,
    ),
    Symptom(
        name="tls-handshake-protocol",
        pattern=(
            r"(?-i:wrong version number"
            r"|Wrong version number"
            r"|tlsv1 alert"
            r"|sslv3 alert"
            r"|handshake failure"
            r"|Handshake failure"
            r"|SSLHandshakeException"
            r"|no protocols available"
            r"|No protocols available"
            r"|ERR_SSL_PROTOCOL_ERROR"
            r"|server gave HTTP response to HTTPS client"
            r"|Server gave HTTP response to HTTPS client"
            r"|EOF occurred in violation of protocol)"
        ),
        explains=(
            "The TLS handshake failed: HTTPS spoken to a plain HTTP port, incompatible TLS "
            "versions or ciphers, a missing client certificate for mTLS, or SNI; match scheme "
            "and port, configure TLS versions deliberately."
        ),
    ),
    Symptom(
        name="net-proxy",
        pattern=(
            r"(?-i:407 Proxy Authentication Required"
            r"|Proxy CONNECT aborted"
            r"|proxyconnect tcp"
            r"|Proxyconnect tcp"
            r"|Unable to connect to proxy"
            r"|Received HTTP code 407)"
        ),
        explains=(
            "An HTTP proxy blocks the request: HTTP_PROXY or HTTPS_PROXY misconfigured, proxy "
            "credentials missing, internal hosts and localhost absent from NO_PROXY."
        ),
        environment=True,
    ),
    Symptom(
        name="nginx-bad-gateway",
        pattern=(
            r"(?-i:502 Bad Gateway"
            r"|while connecting to upstream"
            r"|While connecting to upstream"
            r"|no live upstreams"
            r"|No live upstreams"
            r"|upstream prematurely closed"
            r"|Upstream prematurely closed"
            r"|upstream sent too big header"
            r"|Upstream sent too big header"
            r"|no server available"
            r"|No server available"
            r"|503 Service (?:Unavailable|Temporarily))"
        ),
        explains=(
            "The reverse proxy cannot reach the app: the upstream crashed or is not listening, "
            "wrong proxy_pass port or socket, the app binds 127.0.0.1 inside a container, "
            "health checks fail; bind 0.0.0.0 and align ports."
        ),
    ),
    Symptom(
        name="nginx-gateway-timeout",
        pattern=(
            r"(?-i:504 Gateway Time-?out"
            r"|upstream timed out"
            r"|Upstream timed out"
            r"|Gateway Timeout)"
        ),
        explains=(
            "The upstream took longer than the proxy timeout: slow queries, blocking work in "
            "the request path; move long tasks to a background job queue, add indexes, tune "
            "proxy_read_timeout deliberately."
        ),
    ),
    Symptom(
        name="nginx-config",
        pattern=(
            r"(?-i:\[emerg\]"
            r"|configuration file [^\n]{1,80} test failed"
            r"|Configuration file [^\n]{1,80} test failed"
            r"|unknown directive"
            r"|Unknown directive"
            r"|host not found in upstream"
            r"|Host not found in upstream"
            r"|could not build server_names_hash"
            r"|Could not build server_names_hash)"
        ),
        explains=(
            "The nginx configuration is invalid: a directive in the wrong context, a typo, an "
            "upstream host not resolvable at startup; test with nginx -t and use resolver with "
            "variables for dynamic upstreams."
        ),
    ),
    Symptom(
        name="http-payload-too-large",
        pattern=(
            r"(?-i:Request Entity Too Large"
            r"|request Entity Too Large"
            r"|Payload Too Large"
            r"|payload Too Large"
            r"|client intended to send too large"
            r"|Client intended to send too large)"
        ),
        explains=(
            "The request body exceeds the server limit (client_max_body_size, body parser "
            "limit); raise it deliberately, stream or chunk uploads, upload directly to object "
            "storage with presigned URLs."
        ),
    ),
    Symptom(
        name="grpc-status",
        pattern=(
            r"(?-i:code = (?:Unavailable|Unimplemented|DeadlineExceeded|Internal)"
            r"|Code = (?:Unavailable|Unimplemented|DeadlineExceeded|Internal)"
            r"|StatusCode\.(?:UNAVAILABLE|UNIMPLEMENTED|DEADLINE_EXCEEDED)"
            r"|received message larger than max"
            r"|Received message larger than max)"
        ),
        explains=(
            "gRPC call failed: server not reachable or TLS mismatch, service or method not "
            "registered or proto package differs, deadline too short, message size limits; "
            "share generated protos, set deadlines and retry policies."
        ),
    ),
    # Message queues
    Symptom(
        name="kafka-broker-unavailable",
        pattern=(
            r"(?-i:Broker may not be available"
            r"|could not be established\. Broker"
            r"|Could not be established\. Broker"
            r"|LEADER_NOT_AVAILABLE"
            r"|NotLeaderOrFollower"
            r"|Failed to update metadata"
            r"|Topic [^\n]{1,80} not present in metadata"
            r"|UNKNOWN_TOPIC_OR_PARTITION"
            r"|NoBrokersAvailable)"
        ),
        explains=(
            "The Kafka client cannot reach a broker or topic: wrong bootstrap servers or "
            "advertised.listeners in Docker, topic not created; provision topics explicitly, "
            "configure listeners for both internal and external clients."
        ),
    ),
    Symptom(
        name="kafka-consumer-rebalance",
        pattern=(
            r"(?-i:CommitFailedException"
            r"|RebalanceInProgress"
            r"|max\.poll\.interval\.ms"
            r"|consumer poll timeout has expired"
            r"|Consumer poll timeout has expired"
            r"|group has already rebalanced"
            r"|Group has already rebalanced)"
        ),
        explains=(
            "The consumer processed a batch longer than max.poll.interval.ms and was removed "
            "from the group; reduce max.poll.records, process asynchronously, commit offsets "
            "after processing, make handlers idempotent."
        ),
    ),
    Symptom(
        name="kafka-serialization",
        pattern=(
            r"(?-i:SerializationException"
            r"|Error deserializing key/value"
            r"|RecordTooLargeException"
            r"|message size too large"
            r"|Message size too large"
            r"|Unknown magic byte)"
        ),
        explains=(
            "A record cannot be (de)serialised: schema mismatch, wrong serializer or schema "
            "registry, a poison message; version schemas compatibly, route bad records to a "
            "dead letter queue, keep messages small."
        ),
    ),
    Symptom(
        name="rabbitmq-channel-errors",
        pattern=(
            r"(?-i:PRECONDITION_FAILED"
            r"|inequivalent arg"
            r"|Inequivalent arg"
            r"|NOT_FOUND - no (?:queue|exchange)"
            r"|ACCESS_REFUSED"
            r"|unknown delivery tag"
            r"|Unknown delivery tag"
            r"|ChannelClosedByBroker"
            r"|ConnectionClosedByBroker"
            r"|CHANNEL_ERROR"
            r"|delivery acknowledgement on channel [^\n]{0,40}timed out"
            r"|Delivery acknowledgement on channel [^\n]{0,40}timed out)"
        ),
        explains=(
            "RabbitMQ closed the channel: queues redeclared with different arguments, "
            "consuming before declaring topology, double or cross-channel acks, ack timeouts "
            "on long tasks; declare idempotently, ack once manually, set prefetch."
        ),
    ),
    Symptom(
        name="amqp-connection",
        pattern=(
            r"(?-i:AMQPConnectionError"
            r"|StreamLostError"
            r"|CONNECTION_FORCED"
            r"|missed heartbeats"
            r"|Missed heartbeats)"
        ),
        explains=(
            "The broker connection dropped: wrong host, vhost or credentials, missed heartbeats "
            "from blocking the I/O thread; reconnect with backoff, keep heartbeats serviced."
        ),
        environment=True,
    ),
    Symptom(
        name="nats-errors",
        pattern=(
            r"(?-i:nats: (?:no responders|timeout|no servers available|stream not found|consumer"
            r" not found|authorization violation|slow consumer|maximum payload exceeded|JetStream"
            r" not enabled))"
        ),
        explains=(
            "NATS request or JetStream failure: no subscriber on the subject, subject typos, "
            "stream or consumer not created, slow consumers overflowing pending limits; create "
            "streams at startup, use queue groups and async processing."
        ),
    ),
    # Observability
    Symptom(
        name="otel-export",
        pattern=(
            r"(?-i:Failed to export (?:spans|metrics|logs|traces)"
            r"|OTLP exporter"
            r"|Exporting failed"
            r"|exporter export timeout"
            r"|Exporter export timeout"
            r"|BatchSpanProcessor[^\n]{0,60}(?:dropped|queue is full))"
        ),
        explains=(
            "Telemetry cannot reach the collector: wrong OTEL_EXPORTER_OTLP_ENDPOINT, gRPC 4317 "
            "vs HTTP 4318 protocol mismatch, collector down; flush providers on shutdown, use "
            "batch processors."
        ),
        environment=True,
    ),
    Symptom(
        name="prometheus-metrics",
        pattern=(
            r"(?-i:Duplicated timeseries in CollectorRegistry"
            r"|duplicate metrics collector registration"
            r"|Duplicate metrics collector registration"
            r"|previously registered descriptor with the same fully-qualified name"
            r"|Previously registered descriptor with the same fully-qualified name"
            r"|inconsistent label cardinality"
            r"|Inconsistent label cardinality"
            r"|was collected before with the same name and label values"
            r"|Was collected before with the same name and label values"
            r"|many-to-many matching not allowed"
            r"|out of order sample"
            r"|Out of order sample)"
        ),
        explains=(
            "Metrics are registered twice (module reloaded, tests) or labels are inconsistent; "
            "create metrics once at module level, use a custom registry in tests, keep label "
            "sets fixed and low-cardinality."
        ),
    ),
    Symptom(
        name="logging-ingestion-limits",
        pattern=(
            r"(?-i:entry too far behind"
            r"|Entry too far behind"
            r"|entry out of order"
            r"|Entry out of order"
            r"|Ingestion rate limit exceeded"
            r"|per stream rate limit exceeded"
            r"|Per stream rate limit exceeded"
            r"|maximum (?:active )?(?:series|stream)s? (?:limit|reached)"
            r"|Maximum (?:active )?(?:series|stream)s? (?:limit|reached)"
            r"|stream limit exceeded"
            r"|Stream limit exceeded)"
        ),
        explains=(
            "The log or metrics backend rejects data: high-cardinality labels (user ids, "
            "request ids), bursty ingestion; keep labels low-cardinality, put ids in the log "
            "body, batch and rate limit senders."
        ),
    ),
)
