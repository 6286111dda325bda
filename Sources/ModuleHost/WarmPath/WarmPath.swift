/// The warm path of resolution, contained: everything a warm resolve touches, and everything that keeps it safe
/// without a lock, is in this folder. Nothing outside it needs to know how it works.
///
/// **Its interface** (all that the rest of the library uses):
/// - readers, the bridge's inlined `resolve` and the registry's: ``WarmResolutions/service(_:)`` and
///   ``WarmResolutions/module(_:)``, which answer from the latest ``ResolutionSnapshot`` or say "not here" (`nil`),
///   and the caller then takes the registry's locked path;
/// - the one writer, `ResolutionCache` (in `Registry/`), under its lock: ``WarmResolutions/replace(with:)`` to
///   publish a snapshot, ``WarmResolutions/holdsModule(_:)`` and ``WarmResolutions/holdsService(_:)`` to learn
///   whether a change must republish, and ``RetiredResolutions`` to hand back what a change took out of use;
/// - whoever made the change, once it holds no lock: ``RetiredResolutions/dispose()``.
///
/// **Its invariants:**
/// 1. A snapshot is immutable once published; a change publishes a new one.
/// 2. Replacements are serialized by the writer's lock, and none happens inside a read section.
/// 3. A read section (``ReaderSlot``) takes no lock, retains nothing and writes only its own thread's slot; it copies
///    the module or service out before it leaves.
/// 4. A replaced snapshot is freed only after a grace period (``SnapshotReaders/waitForGracePeriod()``): every
///    read section under way when it was replaced has ended. `dispose()` returns after that, so a release or an
///    injection returns only once no resolve can still see what it replaced.
/// 5. Service boxes are stored only under the identity of their own static type, so the downcast that reads one is
///    exact.
/// 6. Every reader fences its own entry (one sequentially consistent store to its slot), and a thread with no slot
///    takes the locked path. An earlier design let readers skip that fence by having writers fence every thread
///    with Linux's `membarrier(2)`; registering for it waits for a kernel grace period (6 to 18 ms measured here)
///    in any process that already has threads, which every start of `app-shell` paid, for 10 ns a warm resolve.
///
/// `WarmResolutionTests` and `WarmResolveAttackTests` hold these; the Benchmarks package measures the path
/// (warm resolve against the fastest peer, and two threads against one).
enum WarmPath {}
