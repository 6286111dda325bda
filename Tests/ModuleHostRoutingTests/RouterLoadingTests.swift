import Foundation
import Testing
@testable import ModuleHost
@testable import ModuleHostRouting
import TestSupport
import ModuleHostTesting

/// A route's module loads on its first open, once however many opens race; a module that fails to load is reported;
/// the router's events tell of opens and refusals.
@Suite("Router: loading, events, concurrency", .timeLimit(.minutes(5)))
struct RouterLoadingTests: RouterSuite {
    @Test func aRoutesModuleLoadsOnItsFirstOpenOnly() async throws {
        let recorder = LoadRecorder()
        let manager = try manager(recorder: recorder)
        #expect(state(of: "test.routes.alpha", in: manager) == .registered)
        #expect(manager.router.routes.count == RouteAlphaModule.routes.count, "listing loads nothing")
        #expect(state(of: "test.routes.alpha", in: manager) == .registered)
        _ = try await manager.router.open("/alpha/items/1")
        _ = try await manager.router.open("/alpha/items/2")
        #expect(state(of: "test.routes.alpha", in: manager) == .loaded)
        #expect(recorder.count(of: "load alpha") == 1)
    }

    @Test func aModuleThatFailsToLoadIsReported() async throws {
        let manager = try manager(["RouteFailingLoadModule"])
        let error = try #require(await failure("/failing/page", in: manager))
        #expect(error.code == .moduleUnavailable)
        #expect(error.message.contains("test.routes.failing"))
        #expect(error.description.contains("cannot load for tests"))
    }

    @Test func eventsReportWillDidAndRefusals() async throws {
        let manager = try manager()
        let events = manager.router.events()
        _ = try await manager.router.open("/alpha/items/4")
        _ = await failure("/alpha/closed", in: manager)
        var seen: [String] = []
        for await event in events {
            switch event {
            case .willOpen(let request): seen.append("will \(request.route) \(request.parameters.integer("id") ?? 0)")
            case .didOpen(let request, let succeeded): seen.append("did \(request.route) \(succeeded)")
            case .refused(let error): seen.append("refused \(error.code)")
            }
            if seen.count == 3 { break }
        }
        #expect(seen == ["will alpha.item 4", "did alpha.item true", "refused rejected"])
    }

    @Test func manyOpensAtOnceAllSucceedAndLoadTheModuleOnce() async throws {
        let recorder = LoadRecorder()
        let manager = try manager(recorder: recorder)
        let texts = await withTaskGroup(of: String?.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let id = index % 100 + 1
                    let url = index.isMultiple(of: 2) ? "/alpha/items/\(id)" : "modulehost://app/alpha/items/\(id)"
                    return try? await manager.router.open(url, from: index.isMultiple(of: 3) ? .external : .inApp).output.text
                }
            }
            var texts: [String] = []
            for await text in group { texts.append(text ?? "failed") }
            return texts
        }
        #expect(texts.count == 200)
        // The ones from outside with a bare path are refused; every other one opens.
        #expect(texts.filter { $0 == "failed" }.count == (0..<200).filter { $0.isMultiple(of: 2) && $0.isMultiple(of: 3) }.count)
        #expect(recorder.count(of: "load alpha") == 1)
        #expect(recorder.count(of: "target alpha.item") == texts.filter { $0 != "failed" }.count)
    }
}
