import Foundation
import Testing

/// Runs `Tools/install` (bash) with `arguments`; stderr is its report.
private func install(_ arguments: [String]) throws -> ToolRunner.Run {
    try ToolRunner.run(
        [ToolRunner.repository.appendingPathComponent("Tools/install").path] + arguments,
        executable: URL(fileURLWithPath: "/bin/bash"))
}

/// Every path under `folder`, relative to it.
private func contents(_ folder: URL) -> [String] {
    (FileManager.default.subpaths(atPath: folder.path) ?? []).sorted()
}

@Suite("Tools/install and its uninstall, into a temporary prefix (end to end)", .serialized)
struct InstallTests {
    static let files = [
        "bin/gestures", "share/man/man1/gestures.1", "share/bash-completion/completions/gestures",
        "share/zsh/site-functions/_gestures", "share/fish/vendor_completions.d/gestures.fish",
        "share/systemd/user/gestures.service", "share/gnome-shell/extensions/gestures-focus@gestures/metadata.json",
        "share/gnome-shell/extensions/gestures-focus@gestures/extension.js",
        "share/gnome-shell/extensions/gestures-focus-legacy@gestures/metadata.json",
        "share/gnome-shell/extensions/gestures-focus-legacy@gestures/extension.js", "share/gestures/install-manifest",
        "share/applications/gestures-ui.desktop",
    ]

    @Test("install puts every part in place and says so; uninstall leaves nothing behind")
    func installThenUninstall() throws {
        let root = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let prefix = root.appendingPathComponent("prefix")  // does not exist yet: the install creates it
        let installed = try install(["--prefix", prefix.path, "--no-system", "--binary", ToolRunner.executable.path])
        #expect(installed.status == 0, "\(installed.stderr)")
        for file in Self.files {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)")
            if file != "share/gestures/install-manifest" {
                #expect(installed.stderr.contains("installed \(prefix.path)/\(file)"), "\(file)")
            }
        }
        #expect(installed.stderr.contains("skipped the udev rule and the input group (--no-system)"))
        #expect(installed.stderr.contains("Remove it all with: Tools/install --uninstall --prefix \(prefix.path)"))

        // The unit starts the installed binary, and its Documentation= is the installed man page.
        let unit = try String(contentsOf: prefix.appendingPathComponent("share/systemd/user/gestures.service"), encoding: .utf8)
        #expect(unit.contains("\nExecStart=\(prefix.path)/bin/gestures run\n"))
        #expect(unit.contains("\nDocumentation=man:gestures(1)\n"))
        // The application menu's entry opens the page with the installed binary.
        let entry = try String(contentsOf: prefix.appendingPathComponent("share/applications/gestures-ui.desktop"), encoding: .utf8)
        #expect(entry.contains("\nExec=\(prefix.path)/bin/gestures ui\n") && entry.hasPrefix("[Desktop Entry]\n"))
        let page = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/gestures.1"), encoding: .utf8)
        #expect(page == (try ToolRunner.run(["generate-manual"]).stdout))
        for (shell, file) in [
            ("bash", "share/bash-completion/completions/gestures"), ("zsh", "share/zsh/site-functions/_gestures"),
            ("fish", "share/fish/vendor_completions.d/gestures.fish"),
        ] {
            let script = try String(contentsOf: prefix.appendingPathComponent(file), encoding: .utf8)
            #expect(script == (try ToolRunner.run(["generate-completion", shell]).stdout), "\(shell)")
        }
        let version = Process()
        version.executableURL = prefix.appendingPathComponent("bin/gestures")
        version.arguments = ["--version"]
        version.standardOutput = FileHandle.nullDevice
        try version.run()
        version.waitUntilExit()
        #expect(version.terminationStatus == 0)

        // Installing again over it keeps one list of what to remove.
        #expect(try install(["--prefix", prefix.path, "--no-system", "--binary", ToolRunner.executable.path]).status == 0)

        let removed = try install(["--uninstall", "--prefix", prefix.path, "--no-system"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stderr.hasSuffix("install: done: gestures is uninstalled from \(prefix.path)\n"))
        #expect(contents(root).isEmpty, "left behind: \(contents(root))")
    }

    @Test("uninstall keeps what was there before the install")
    func uninstallKeepsOtherFiles() throws {
        let prefix = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: prefix) }
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try "mine".write(to: prefix.appendingPathComponent("bin/other-tool"), atomically: true, encoding: .utf8)
        #expect(try install(["--prefix", prefix.path, "--no-system", "--binary", ToolRunner.executable.path]).status == 0)
        let uninstall = Process()
        uninstall.executableURL = URL(fileURLWithPath: "/bin/bash")
        uninstall.arguments = [
            ToolRunner.repository.appendingPathComponent("Tools/uninstall").path, "--prefix", prefix.path, "--no-system",
        ]
        uninstall.standardError = FileHandle.nullDevice
        try uninstall.run()
        uninstall.waitUntilExit()
        #expect(uninstall.terminationStatus == 0)
        #expect(contents(prefix) == ["bin", "bin/other-tool"])
    }

    @Test("uninstall with nothing installed, or a wrong option, says so in one line")
    func nothingToUninstall() throws {
        let prefix = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let run = try install(["--uninstall", "--prefix", prefix.path])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "install: nothing to remove: there is no \(prefix.path)/share/gestures/install-manifest (was gestures installed with --prefix \(prefix.path)?)\n"
        )
        let wrong = try install(["--prefx", prefix.path])
        #expect(wrong.status == 64)
        #expect(wrong.stderr == "install: unknown option '--prefx'; see 'Tools/install --help'\n")
    }
}
