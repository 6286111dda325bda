import Foundation

extension StartupReport {
    /// The report as pretty-printed JSON with sorted keys; times are milliseconds (`…Ms` fields).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
