import CommandLineKit
import DesktopDaemon
import Foundation
import GesturePage

/// `gestures ui`: the page, served on this machine, opened in the browser.
enum UICommand: Command {
    static let name = "ui"
    static let abstract = "Open the page: see your fingers and why each gesture fired or not, in the browser."
    static let discussion = """
        Starts a web server on the loopback address (127.0.0.1, and ::1), prints its address with
        a random token and opens it in the browser (xdg-open; --no-browser only prints). The page
        shows the running daemon's own view: it watches the daemon through its socket
        ($XDG_RUNTIME_DIR/gestures/daemon.socket, or --socket) while a page is open, so the
        touches, gestures and verdicts it draws are what the daemon decided. Its bindings view edits
        the configuration file (--config, else the daemon's default): every edit is checked by the
        reader check-config uses, and a save keeps the old file as PATH.bak (the daemon reloads it
        when it changes). Recordings made or imported in the page are saved in
        $XDG_DATA_HOME/gestures/recordings (~/.local/share/gestures/recordings); the applications
        offered for apps: are those the session's focus source reports while a page is open.
        The server refuses requests for another host name, from another site's page, without the address's token and,
        for a change, without the page's CSRF token. Ctrl-C stops it.
        """
    static let port = Option(
        "--port", valueName: "N", .integer(in: 0...65535), help: "Listen on this port (default: a free one the kernel picks).")
    static let socket = Option(
        "--socket", valueName: "PATH", .text, help: "The daemon's socket (default: $XDG_RUNTIME_DIR/gestures/daemon.socket).")
    static let noBrowser = Flag("--no-browser", help: "Only print the address; open no browser.")
    static let configuration = Option(
        "--config", valueName: "PATH", .text,
        help: "The configuration file the page edits (default: the daemon's, $XDG_CONFIG_HOME/gestures/config.yaml).")
    static let options = [port.spec, socket.spec, configuration.spec, noBrowser.spec]

    /// The port, the daemon's socket, the configuration file and whether to open a browser.
    struct Options {
        var port: Int
        var socket: String?
        var configurationPath: String
        var opensBrowser: Bool
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(
            port: arguments[port] ?? 0, socket: arguments[socket] ?? DaemonChannel.defaultPath(),
            configurationPath: arguments[configuration] ?? ConfigurationFile.existingDefaultPath
                ?? ConfigurationFile.defaultDirectory + "/config.yaml",
            opensBrowser: !arguments[noBrowser])
    }

    static func run(_ options: Options) throws -> Int32 {
        let server: PageServer
        do {
            server = try PageServer(
                settings: .init(
                    port: options.port, socket: options.socket, configurationPath: options.configurationPath,
                    recordingsFolder: PageServer.Settings.defaultRecordingsFolder(ProcessInfo.processInfo.environment),
                    focusEnvironment: ProcessInfo.processInfo.environment))
        } catch {
            throw CommandFailure(error.description)
        }
        let address = server.address
        FileHandle.standardOutput.write(Data((address + "\n").utf8))
        printError("gestures ui: serving the page at \(address) (Ctrl-C to stop).")
        if options.opensBrowser { openBrowser(address) }
        let done = DispatchSemaphore(value: 0)
        let stop = StopSignals { done.signal() }
        defer { stop.cancel() }
        done.wait()
        server.stop()
        return 0
    }

    /// Opens `address` with `xdg-open`, saying so when it cannot.
    static func openBrowser(_ address: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", address]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            printError("gestures ui: cannot open a browser (xdg-open: \(error.localizedDescription)); open the address above.")
        }
    }
}
