#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StartupReport {
    /// The report as pretty-printed JSON with sorted keys; times are milliseconds (`…Ms` fields).
    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
