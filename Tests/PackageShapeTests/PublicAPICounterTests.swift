import Testing

@Suite("Public declaration counter")
struct PublicAPICounterTests {
    // Longer than a screen on purpose: one fixture source with every counted and uncounted form side by side.
    @Test func countsByTheDefinitionInDocs() {
        let source = #"""
            import Foundation

            /// public func documented()
            // public var commented = 1
            /* public struct Hidden {} /* nested */ public let stillHidden = 1 */
            public struct Point {                                  // 1
                public var x: Int                                  // 2
                public private(set) var y = 0                      // 3
                var internalValue = 0
                let text = """
                    public func inString() {}
                    """
                let raw = #"public let "quoted" one"#
                public init(x: Int) {                              // 4
                    self.x = x
                    let local = 0
                    _ = local
                }
                @discardableResult
                public static func make() -> Point { Point(x: 0) } // 5
                public subscript(index: Int) -> Int { index }      // 6
                private func hidden() {}
            }
            public enum Kind: String {                             // 7
                case a, b                                          // 8, 9
                func describe() -> String {
                    switch self {
                    case .a: "a"
                    case .b: "b"
                    }
                }
            }
            public enum Shape {                                    // 10
                case circle(radius: Double, center: (Double, Double)) // 11
                indirect case group([Shape])                       // 12
            }
            enum Internal { case one, two; public static let x = 1 } // 13: counted as written
            public protocol Service: Sendable {                    // 14
                associatedtype Value                               // 15
                var value: Value { get }                           // 16
                init()                                             // 17
                func run() async throws                            // 18
            }
            extension Point {
                public func moved() -> Point { self }              // 19
                func helper() {}
            }
            public extension Point {
                func implicitlyPublic() {}                         // 20
                private func stillPrivate() {}
                static let zero = Point(x: 0)                      // 21
            }
            open class Base {                                      // 22
                open func draw() {}                                // 23
                public class func make() -> Base { Base() }        // 24
                public final class Nested {}                       // 25
            }
            public typealias Handler = @Sendable () -> Void        // 26
            public actor Counter { public func next() -> Int { 0 } } // 27, 28
            #if os(Linux)
            public let platform = "Linux"                          // 29
            #else
            public let platform = "other"                          // 30
            #endif
            func free() { let open = 1; _ = open }
            """#
        #expect(PublicAPICounter.count(in: source) == 30)
    }

    @Test func nothingPublicCountsNothing() {
        #expect(PublicAPICounter.count(in: "struct A { var b = 0\n func c() {} }\nenum E { case x, y }\n") == 0)
    }

    /// A declaration marked `@_spi(…)` is counted apart, not in the public count; its unmarked default is public.
    @Test func spiDeclarationsAreCountedApart() {
        let source = """
            public protocol Module {
                static var name: String { get }
                @_spi(Host) static var _mark: String { get }
                @_spi(Host)
                func _hook()
            }
            extension Module {
                public static var _mark: String { "" }
                @_spi(Host) public func _hook() {}
            }
            """
        let counts = PublicAPICounter.counts(in: source)
        #expect(counts.public == 3)  // the protocol, `name`, the default `_mark`
        #expect(counts.spi == 3)     // `_mark` and `_hook` in the protocol, the default `_hook`
    }

    /// Declarations written `package` are counted apart; a `package` extension itself is not a declaration.
    @Test func packageDeclarationsAreCountedApart() {
        let source = """
            package struct Table {
                package let rows: Int
                package init(rows: Int) { self.rows = rows; let package = 1; _ = package }
                public var count: Int { rows }
            }
            extension Table {
                package static func empty() -> Table { Table(rows: 0) }
            }
            """
        let counts = PublicAPICounter.counts(in: source)
        #expect(counts.package == 4)  // the struct, `rows`, the init, `empty()`
        #expect(counts.public == 1)
    }
}
