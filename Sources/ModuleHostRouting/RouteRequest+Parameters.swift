import ModuleHost

extension RouteRequest {
    /// The decoded parameters of an opened route: its path parameters and query items, by name.
    public struct Parameters: Sendable, Hashable {
        /// A decoded value.
        package enum Value: Sendable, Hashable {
            case integer(Int)
            case text(String)
        }

        private let values: [String: Value]

        package init(_ values: [String: Value]) {
            self.values = values
        }

        /// The integer parameter `name`, or `nil` when there is none (an optional query item left out).
        ///
        /// - Parameter name: The parameter's name.
        /// - Returns: Its value, or `nil`.
        public func integer(_ name: String) -> Int? {
            guard case .integer(let value) = values[name] else { return nil }
            return value
        }

        /// The text (or one-of) parameter `name`, or `nil` when there is none.
        ///
        /// - Parameter name: The parameter's name.
        /// - Returns: Its value, or `nil`.
        public func text(_ name: String) -> String? {
            guard case .text(let value) = values[name] else { return nil }
            return value
        }

        /// The names of the parameters present, sorted.
        package var names: [String] {
            values.keys.sorted()
        }
    }
}
