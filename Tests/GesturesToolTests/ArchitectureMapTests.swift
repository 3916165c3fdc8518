import Foundation
import Testing

/// The targets `Package.swift` declares (test targets aside), each with the
/// targets it depends on.
enum PackageTargets {
    static func read() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: ToolRunner.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        // `.target(name: "X", dependencies: [...]`, `.systemLibrary(\n name: "X"`, `.executableTarget(...)`.
        let declaration = /\.(?:target|systemLibrary|executableTarget)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?/
        var targets: [String: Set<String>] = [:]
        for match in manifest.matches(of: declaration) {
            let names = (match.output.2 ?? "").matches(of: /"([^"]+)"/).map { String($0.output.1) }
            targets[String(match.output.1)] = Set(names)
        }
        return targets
    }
}

/// The module map of Docs/Architecture.md: the first cell of each row of its
/// table is a module, the backticked names in the second the modules it depends on.
enum ArchitectureMap {
    static func read() throws -> (modules: [String: Set<String>], page: String) {
        let page = try String(contentsOf: ToolRunner.repository.appendingPathComponent("Docs/Architecture.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "\n## The module map\n").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
        var modules: [String: Set<String>] = [:]
        for row in section.split(separator: "\n") where row.hasPrefix("| `") {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            #expect(modules[module] == nil, "\(module) is listed once")
            modules[module] = Set(cells[2].matches(of: /`([^`]+)`/).map { String($0.output.1) })
        }
        return (modules, page)
    }
}

@Suite("Docs/Architecture.md's module map is Package.swift's targets")
struct ArchitectureMapTests {
    @Test("the map lists every target of Package.swift, and nothing else")
    func sameModules() throws {
        let targets = try PackageTargets.read()
        let map = try ArchitectureMap.read().modules
        #expect(targets.count >= 20, "Package.swift read: \(targets.keys.sorted())")
        #expect(Set(map.keys).subtracting(targets.keys).isEmpty, "in the map but not in Package.swift")
        #expect(Set(targets.keys).subtracting(map.keys).isEmpty, "in Package.swift but not in the map")
    }

    @Test("each module's dependencies in the map are those Package.swift declares", arguments: try PackageTargets.read().keys.sorted())
    func sameDependencies(module: String) throws {
        let declared = try #require(try PackageTargets.read()[module])
        let mapped = try #require(try ArchitectureMap.read().modules[module], "\(module) is in the map")
        #expect(mapped == declared, "\(module): the map says \(mapped.sorted()), Package.swift \(declared.sorted())")
    }

    @Test("every module that depends on a C system library is among the ones 'Where C is' names, and the count is right")
    func cModulesNamed() throws {
        let targets = try PackageTargets.read()
        let manifest = try String(contentsOf: ToolRunner.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let systemLibraries = Set(manifest.matches(of: /\.systemLibrary\(\s*name:\s*"([^"]+)"/).map { String($0.output.1) })
        #expect(systemLibraries.count >= 5)
        let page = try ArchitectureMap.read().page
        let section = try #require(page.components(separatedBy: "\n## Where C is\n").dropFirst().first).components(separatedBy: "\n## ")[0]
        let named = Set(
            section.split(separator: "\n").filter { $0.hasPrefix("- `") }.compactMap { $0.dropFirst(3).split(separator: "`").first }.map(
                String.init))
        let linking = Set(targets.filter { !$0.value.isDisjoint(with: systemLibraries) }.keys).subtracting(systemLibraries)
        #expect(linking.isSubset(of: named), "\(linking.subtracting(named).sorted()) use C but the page does not say so")
        let words = ["one", "two", "three", "four", "five", "six", "seven"]
        #expect(section.contains("\(words[named.count - 1]) modules touch it"), "the count of modules that touch C: \(named.sorted())")
    }

    @Test("Package.swift's header points at the map rather than keeping a second one")
    func headerPointsAtTheMap() throws {
        let manifest = try String(contentsOf: ToolRunner.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let header = manifest.components(separatedBy: "\nimport PackageDescription")[0]
        #expect(header.contains("Docs/Architecture.md"))
        for module in try PackageTargets.read().keys where module.count > 6 {
            #expect(!header.contains(module), "the header names \(module): the map is kept in Docs/Architecture.md only")
        }
    }

    @Test(
        "the C libraries the page says the tool links are those of Package.swift's system libraries, and the built tool links each",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pkg-config")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd")))
    func linkedLibrariesNamed() throws {
        let manifest = try String(contentsOf: ToolRunner.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let packages = manifest.matches(of: /pkgConfig:\s*"([^"]+)"/).map { String($0.output.1) }
        #expect(packages.count >= 5)
        let page = try ArchitectureMap.read().page
        let sentence = try #require(page.range(of: "The release binary therefore links ")).upperBound
        let named = page[sentence...].prefix { $0 != ";" }.replacingOccurrences(of: "\n", with: " ")
        let linked = try ToolRunner.run([ToolRunner.executable.path], executable: URL(fileURLWithPath: "/usr/bin/ldd")).stdout
        for package in packages {
            let flags = try ToolRunner.run(["--libs", package], executable: URL(fileURLWithPath: "/usr/bin/pkg-config")).stdout
            let library = try #require(flags.split(separator: " ").first { $0.hasPrefix("-l") }).dropFirst(2)
            #expect(named.contains("lib\(library)"), "the page does not name lib\(library) (pkg-config \(package)): \(named)")
            #expect(
                linked.contains("lib\(library).so") || linked.contains("lib\(library)-"), "the built tool does not link lib\(library)")
        }
    }

    @Test("no Swift file outside SystemCalls retries EINTR itself: an interrupted call is made again in one place")
    func oneRetryOfInterruptedCalls() throws {
        let root = ToolRunner.repository
        var files: [String] = []
        for folder in ["Sources", "Tools"] {
            let walker = try #require(FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path))
            for case let path as String in walker where path.hasSuffix(".swift") { files.append("\(folder)/\(path)") }
        }
        #expect(files.count >= 100, "Swift files found under Sources and Tools: \(files.count)")
        #expect(files.contains("Sources/SystemCalls/Errno.swift"))
        for file in files where !file.hasPrefix("Sources/SystemCalls/") {
            let namesEINTR = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).contains("EINTR")
            #expect(!namesEINTR, "\(file) names EINTR: make the call through SystemCalls (retryingInterrupts)")
        }
    }
}
