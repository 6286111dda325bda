import Dependencies

// The resolve benchmark's swift-dependencies peer, used the way its users do: a key with a live value, a
// `DependencyValues` property, and a `@Dependency` property read wherever the service is needed.

/// The same service for swift-dependencies.
final class DependenciesBenchService: BenchService {
    func value() -> Int { 42 }
}

enum BenchServiceKey: DependencyKey {
    static let liveValue: any BenchService = DependenciesBenchService()
}

extension DependencyValues {
    var benchService: any BenchService {
        get { self[BenchServiceKey.self] }
        set { self[BenchServiceKey.self] = newValue }
    }
}

/// A feature that reads the service through `@Dependency`.
struct DependenciesReader {
    @Dependency(\.benchService) var service
}
