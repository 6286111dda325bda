import Foundation

/// Reads app-shell's `--json` output: one document per line, `{"type": …, "version": 1, "data": …}`.
package enum JSONLines {
    /// Every line parsed as a JSON object; `nil` if any line is not one (so a stray text line fails a test).
    package static func documents(_ text: String) -> [[String: Any]]? {
        var documents: [[String: Any]] = []
        for line in text.split(separator: "\n") {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return nil }
            documents.append(object)
        }
        return documents
    }

    /// The `data` of the first document of `type` (any type when `nil`).
    package static func data(_ text: String, type: String? = nil) -> Any? {
        documents(text)?.first { type == nil || $0["type"] as? String == type }?["data"]
    }
}
