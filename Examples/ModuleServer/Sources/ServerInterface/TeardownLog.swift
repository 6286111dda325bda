import Logging

/// The lines the example's modules log around their asynchronous teardown; the shutdown test reads them.
public enum TeardownLog {
    /// `teardown began <module>`.
    public static func began(_ module: String) -> String { "teardown began \(module)" }
    /// `teardown finished <module>`.
    public static func finished(_ module: String) -> String { "teardown finished \(module)" }
}
