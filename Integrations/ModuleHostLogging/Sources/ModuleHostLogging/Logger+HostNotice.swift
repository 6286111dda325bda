import Logging
import ModuleHost
import ModuleHostState

extension Logger {
    /// Logs a module's notice: `info` notices at info level, `warning` notices at warning level, with the
    /// module in the metadata (`module`).
    public func log(_ notice: HostNotice) {
        let level: Logger.Level = switch notice.severity {
        case .info: .info
        case .warning: .warning
        }
        log(level: level, "\(notice.message)", metadata: ["module": "\(notice.module)"])
    }

    /// A reporter for ``ModuleHost/HostEnvironment``'s `report` that logs each notice with ``log(_:)-(HostNotice)``.
    public var noticeReporter: @Sendable (HostNotice) -> Void {
        let logger = self
        return { notice in logger.log(notice) }
    }
}
