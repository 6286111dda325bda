// Temporary: replaced by the Initiator implementation when its branch is merged.
import Foundation
public final class Initiator: Sendable {
    public enum Priority: String, Sendable, Codable, CaseIterable { case high, asyncHigh, afterFirstFrame, low, idle }
    public enum FailurePolicy: String, Sendable, Codable { case required, optional }
}
extension Initiator { public typealias Operation = @Sendable () async throws -> Void }
