internal import ModuleHostJSON
/// A config's repeated keys, found by walking its tree without recursion.
extension ModuleConfiguration {
    /// One step of the path to a value, kept on a stack while the tree is walked (a coding path is made only for a
    /// problem).
    enum PathStep {
        case key(String)
        case index(Int)

        var codingKey: any CodingKey {
            switch self {
            case .key(let key): AnyConfigurationKey(stringValue: key)
            case .index(let index): AnyConfigurationKey(intValue: index)
            }
        }
    }

    /// Reports every key repeated within one object of the config (the first of each pair would be ignored).
    ///
    /// The tree is walked depth first without recursion (a config as deep as the parser allows must not need a
    /// stack that deep): `open` holds the containers being walked, `steps` the path to the current one.
    func repeatedKeys(in root: JSONValue, into problems: inout [ManifestDiagnostic]) {
        if case .object(let members) = root.kind, !members.contains(where: { Self.isContainer($0.value) }) {
            return repeatedKeys(inFlat: members, into: &problems)
        }
        var open: [OpenContainer] = []
        var steps: [PathStep] = []
        OpenContainer(root).map { open.append($0) }
        while let last = open.indices.last, problems.count <= DiagnosticSink.maximumDiagnostics {
            guard let (step, child) = open[last].next(reporting: &problems, at: steps, configuration: self) else {
                open.removeLast()
                if !open.isEmpty { steps.removeLast() }
                continue
            }
            steps.append(step)
            if let container = OpenContainer(child) {
                open.append(container)
            } else {
                steps.removeLast()
            }
        }
    }

    /// Whether `value` is an object or an array: one that may hold repeated keys of its own.
    private static func isContainer(_ value: JSONValue) -> Bool {
        switch value.kind {
        case .object, .array: true
        default: false
        }
    }

    /// ``repeatedKeys(in:into:)`` for the usual config, an object of scalars: its members in order, with no walk.
    private func repeatedKeys(inFlat members: [JSONValue.Member], into problems: inout [ManifestDiagnostic]) {
        var repetition = JSONValue.RepeatedKeys(members)
        for index in members.indices where problems.count <= DiagnosticSink.maximumDiagnostics {
            if repetition.isRepeated(at: index) { problems.append(repeatedKey(members[index], at: [.key(members[index].key)])) }
        }
    }

    /// An object or array being walked for repeated keys, and the index of its next member or element.
    struct OpenContainer {
        private let isObject: Bool
        private let members: [JSONValue.Member]
        private let elements: [JSONValue]
        private var repetition: JSONValue.RepeatedKeys
        private var nextIndex = 0

        /// `nil` for a value that is not an object or an array.
        init?(_ value: JSONValue) {
            switch value.kind {
            case .object(let members):
                isObject = true
                self.members = members
                elements = []
                repetition = JSONValue.RepeatedKeys(members)
            case .array(let elements):
                isObject = false
                members = []
                self.elements = elements
                repetition = JSONValue.RepeatedKeys([])
            default:
                return nil
            }
        }

        /// The next member (reporting it if its key is repeated) or element, with its step; `nil` after the last.
        mutating func next(reporting problems: inout [ManifestDiagnostic], at steps: [PathStep],
                           configuration: ModuleConfiguration) -> (PathStep, JSONValue)? {
            let index = nextIndex
            nextIndex += 1
            guard isObject else {
                return index < elements.count ? (.index(index), elements[index]) : nil
            }
            guard index < members.count else { return nil }
            let member = members[index]
            if repetition.isRepeated(at: index) {
                problems.append(configuration.repeatedKey(member, at: steps + [.key(member.key)]))
            }
            return (.key(member.key), member.value)
        }
    }

    /// The problem of a member whose key an earlier member of its object has.
    func repeatedKey(_ member: JSONValue.Member, at steps: [PathStep]) -> ManifestDiagnostic {
        ManifestDiagnostic(.error, .invalidConfig, file: file, path: CodingPathText.path(steps.map(\.codingKey), from: path),
                           location: .init(member.keyLocation), message: "field \"\(member.key)\" appears more than once")
    }
}
