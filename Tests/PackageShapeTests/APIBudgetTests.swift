import Foundation
import Testing

/// docs/API.md's budgets, each held here: a change past a budget fails, naming the budget and both numbers.
@Suite("API budgets")
struct APIBudgetTests {
    /// Every library product, as `Sources/<name>`.
    static let products = ["ModuleHost", "ModuleHostState", "ModuleHostRouting", "ModuleHostTesting", "ModuleHostSeed"]

    private static func page() throws -> String {
        try String(contentsOf: PackageDump.root.appendingPathComponent("docs/API.md"), encoding: .utf8)
    }

    /// The budget row `| name | budget | current |` of docs/API.md: its budget and its current value.
    private static func budget(_ name: String) throws -> (budget: Int, current: Int) {
        let row = try #require(try page().split(separator: "\n").first { $0.hasPrefix("| \(name) |") },
                               "docs/API.md has no budget row for \(name)")
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let numbers = cells.dropFirst().compactMap { Int($0.filter(\.isNumber)) }
        try #require(numbers.count >= 2, "the row for \(name) has no budget and current value: \(row)")
        return (numbers[0], numbers[1])
    }

    private static func code(of library: String) throws -> [(file: String, code: String)] {
        try SwiftSource.files(under: "Sources/\(library)", root: PackageDump.root).map { file in
            (file, SwiftSource.code(try String(contentsOf: PackageDump.root.appendingPathComponent(file), encoding: .utf8)))
        }
    }

    /// Holds a measured value to its row: at most the budget, and equal to the current value the page records.
    private func hold(_ name: String, _ measured: Int) throws {
        let row = try Self.budget(name)
        #expect(measured <= row.budget, "\(name): \(measured) is past its budget of \(row.budget)")
        #expect(measured == row.current, "\(name): docs/API.md records \(row.current), the sources have \(measured); update the row")
    }

    /// The declarations of `libraries` that count, and apart from them those marked `@_spi(…)` and `package`.
    private static func declarations(of libraries: [String]) throws -> (public: Int, spi: Int, package: Int) {
        // The counter reads the sources as written (it skips comments and strings itself).
        try libraries.reduce((0, 0, 0)) { sum, library in
            try SwiftSource.files(under: "Sources/\(library)", root: PackageDump.root).reduce(sum) { sum, file in
                let found = PublicAPICounter.counts(in: try String(contentsOf: PackageDump.root.appendingPathComponent(file), encoding: .utf8))
                return (sum.public + found.public, sum.spi + found.spi, sum.package + found.package)
            }
        }
    }

    /// What the package's other targets may use of the library products and no client sees: budgeted, so a
    /// contributor who adds one (or makes another library lean on one) sees it here.
    @Test func packageDeclarationsAcrossEveryLibraryProduct() throws {
        try hold("Package declarations, all library products", try Self.declarations(of: Self.products).package)
    }

    @Test func publicDeclarationsAcrossEveryLibraryProduct() throws {
        try hold("Public declarations, all library products", try Self.declarations(of: Self.products).public)
    }

    /// The four libraries a host builds on, without the seed's compatibility names.
    @Test func publicDeclarationsAcrossTheFourLibraries() throws {
        let four = Self.products.filter { $0 != "ModuleHostSeed" }
        #expect(four.count == 4)
        try hold("Public declarations, the four libraries", try Self.declarations(of: four).public)
    }

    /// Declarations marked `@_spi(…)` in a public protocol or type: part of no client's API, but budgeted too.
    @Test func spiDeclarationsAcrossEveryLibraryProduct() throws {
        try hold("SPI declarations, all library products", try Self.declarations(of: Self.products).spi)
    }

    /// Requirements of `ModuleProtocol` a module author implements: the protocol's requirements that are not SPI.
    @Test func requirementsAModuleAuthorImplements() throws {
        let file = try #require(try Self.code(of: "ModuleHost").first { $0.file.hasSuffix("Module/ModuleProtocol.swift") })
        let body = try #require(file.code.firstRange(of: "public protocol ModuleProtocol").map { file.code[$0.upperBound...] })
        let end = try #require(body.firstRange(of: "\n}\n"))
        let requirements = body[..<end.lowerBound].split(separator: "\n").filter { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            return !text.hasPrefix("@_spi") && (text.hasPrefix("static var ") || text.hasPrefix("var ")
                || text.hasPrefix("func ") || text.hasPrefix("init(") || text.hasPrefix("associatedtype "))
        }
        try hold("Requirements a module author implements", requirements.count)
    }

    @Test(arguments: products)
    func topLevelPublicTypes(library: String) throws {
        let declaration = #/(?m)^(?:@[\w()*, ]+\s+)*public\s+(?:final\s+)?(?:class|struct|enum|protocol|actor|typealias)\s+\w+/#
        let count = try Self.code(of: library).reduce(0) { $0 + $1.code.matches(of: declaration).count }
        try hold("Top-level public types of \(library)", count)
    }

    /// Each spelling that was a second way to do a task stays gone; a new doubling is added to this list.
    @Test func noSecondSpellingComesBack() throws {
        let gone: [(library: String, pattern: String, task: String)] = [
            ("ModuleHost", #"init\(context manager: ModuleManager\)"#, "a module's initializer"),
            ("ModuleHost", #"func moduleDidLoad\(with manager: ModuleManager\)"#, "a module's set-up hook, in ModuleHost"),
            ("ModuleHost", #"public func unloadAll\(\) "#, "unloading every module"),
            ("ModuleHost", #"public init\(_ rawValue: String\)"#, "making a ModuleIdentifier"),
            ("ModuleHost", #"public typealias (Priority|Operation|FailurePolicy) ="#, "naming a startup phase in ModuleHost"),
            ("ModuleHost", #"struct StartupPlanError"#, "saying startup could not run"),
            ("ModuleHostTesting", #"func inject<Service"#, "providing a service"),
        ]
        var found: [String] = []
        for rule in gone {
            for file in try Self.code(of: rule.library) where file.code.contains(try Regex(rule.pattern)) {
                found.append("\(file.file): a second spelling for \(rule.task)")
            }
        }
        try hold("Second spellings of one task", found.count)
        #expect(found.isEmpty, "\(found)")
    }

    /// docs/API.md's "One spelling for each task" table is an inventory: each row's pattern finds exactly one
    /// declaration in the code of the four libraries, the spelling that stayed.
    @Test func eachTaskHasOneSpelling() throws {
        let page = try Self.page()
        guard let start = page.range(of: "## One spelling for each task") else {
            Issue.record("docs/API.md has no \"One spelling for each task\" section")
            return
        }
        let rest = page[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| task") && !$0.hasPrefix("| ---") }
        let code = try Self.products.filter { $0 != "ModuleHostSeed" }.flatMap { try Self.code(of: $0) }.map(\.code).joined(separator: "\n")
        #expect(rows.count >= 10, "too few rows: \(rows.count)")
        for row in rows {
            let task = row.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard let cell = row.firstMatch(of: #/`((?:[^`])+)` \|\s*$/#) else {
                Issue.record("the row for \"\(task)\" has no pattern")
                continue
            }
            let pattern = try Regex(String(cell.output.1).replacing("\\|", with: "|"))
            let found = code.matches(of: pattern).map { String(code[$0.range]) }
            #expect(found.count == 1, "\(task): \(found.count) spellings, not 1: \(found)")
            // Each row sees a second spelling of its task: the removed ones, were they back.
            if let second = Self.secondSpellings[task] {
                #expect((code + "\n" + second).matches(of: pattern).count == 2, "\(task): the pattern misses \(second)")
            }
        }
    }

    /// For some rows, a second spelling its pattern must see (most of them were once in the library).
    static let secondSpellings: [String: String] = [
        "create a module": "    init(context manager: ModuleManager) throws",
        "set a module up after it exists": "    func moduleDidLoad(with manager: ModuleManager) throws",
        "unload every module": "    public func unloadAll() -> [TeardownRecord] {",
        "give the host's own service": "    public func inject<Service: Sendable>(_ service: Service, as type: Service.Type) {",
        "make a command's output": "        public static let none: Output = .text(\"\")",
        "make a `ModuleIdentifier`": "extension ModuleIdentifier {\n    public init(_ rawValue: String) { self.init(rawValue: rawValue) }",
        "name a startup phase": "    public typealias Priority = ModuleStartupOperation.Priority",
        "say startup could not run": "public struct StartupPlanError: Error {",
    ]

    /// Every public enum is listed in docs/API.md's table of enums, as closed (its cases are its meaning) or as
    /// expected to grow; an enum expected to grow that is still exhaustive (not `@nonexhaustive`) counts against
    /// the budget, and one marked `@nonexhaustive` must be listed as expected to grow.
    @Test func publicEnumsAreListedAndThoseExpectedToGrowAreNonexhaustive() throws {
        let declaration = #/(?<attribute>@nonexhaustive\s+)?public\s+enum\s+(?<name>\w+)/#
        var declared: [String] = []
        var nonexhaustive: Set<String> = []
        for library in Self.products {
            for file in try Self.code(of: library) {
                for match in file.code.matches(of: declaration) {
                    declared.append(String(match.output.name))
                    if match.output.attribute != nil { nonexhaustive.insert(String(match.output.name)) }
                }
            }
        }
        let rows = try Self.page().split(separator: "\n").filter { $0.hasPrefix("| enum `") }
        func name(_ row: Substring) -> String? { row.firstMatch(of: #/`(?:\w+\.)*(?<name>\w+)`/#).map { String($0.output.name) } }
        #expect(declared.sorted() == rows.compactMap(name).sorted(), "docs/API.md's enum table and the sources differ")
        let growing = Set(rows.filter { $0.contains("| grows |") }.compactMap(name))
        #expect(nonexhaustive.isSubset(of: growing), "an enum marked @nonexhaustive is listed as closed")
        try hold("Public exhaustive enums expected to grow", growing.subtracting(nonexhaustive).count)
    }

    /// Every file with `@inlinable` or `@usableFromInline` declarations has a row in docs/API.md giving the reason.
    @Test func inlinableDeclarationsEachHaveTheirReason() throws {
        var count = 0
        var files: [String] = []
        for file in try Self.code(of: "ModuleHost") {
            let found = file.code.matches(of: #/@inlinable|@usableFromInline/#).count
            count += found
            if found > 0 { files.append(String(file.file.dropFirst("Sources/ModuleHost/".count))) }
        }
        let rows = try Self.page().split(separator: "\n").filter { $0.hasPrefix("| inlinable `") }
        let listed = rows.compactMap { $0.firstMatch(of: #/`(?<file>[^`]+)`/#).map { String($0.output.file) } }
        #expect(files.sorted() == listed.sorted(), "each file with inlinable code needs a row with its reason in docs/API.md")
        try hold("@inlinable and @usableFromInline declarations", count)
    }
}
