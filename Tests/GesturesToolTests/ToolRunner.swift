import Foundation

/// Runs the built `gestures` executable, as a user would.
struct ToolRunner {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the run passed its deadline and was killed (a hang, as a failure rather than a stuck test).
        var timedOut = false
    }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable beside the test bundle (`swift test` builds it first).
    static let executable: URL = {
        let besideTests = Bundle.main.bundleURL.appendingPathComponent("gestures")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        let arg0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gestures")
        if FileManager.default.isExecutableFile(atPath: arg0.path) { return arg0 }
        return repository.appendingPathComponent(".build/debug/gestures")
    }()

    /// Runs `executable` (the tool unless told) with `arguments` in `directory`, with
    /// `environment` added to this process's and `input` (or nothing) as its standard input.
    /// With `deadline`, a run still going then is killed and comes back `timedOut`.
    static func run(
        _ arguments: [String], in directory: URL = repository, environment: [String: String] = [:], input: URL? = nil,
        executable: URL = executable, deadline: Duration? = nil
    ) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let killed = Killed()
        if let deadline {
            let pid = process.processIdentifier
            nonisolated(unsafe) let running = process
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(deadline.components.seconds))) {
                guard running.isRunning else { return }
                killed.value = true
                kill(pid, SIGKILL)
            }
        }
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = readToEnd(err.fileHandleForReading)
            group.leave()
        }
        let outData = readToEnd(out.fileHandleForReading)
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), timedOut: killed.value)
    }

    /// Whether the deadline killed the run.
    private final class Killed: @unchecked Sendable {
        var value = false
    }

    /// Everything until end of file. Foundation's `readDataToEndOfFile` traps
    /// when a signal interrupts the read (EINTR, as when many children exit
    /// at once); this retries instead.
    static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gestures-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A new temporary directory holding `files` (name: contents).
    static func directory(holding files: [String: String]) throws -> URL {
        let directory = try temporaryDirectory()
        for (name, content) in files { try Data(content.utf8).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    /// The first line of `touchscreenTrace`: a touchscreen whose axes span `0...width` and
    /// `0...height` units at `resolution` units a millimetre (by default 800 x 480 units
    /// without resolution, as the Atmel maXTouch recordings).
    static func touchscreenHeader(width: Int64 = 799, height: Int64 = 479, resolution: Int = 0) -> String {
        let (axis, vertical) = ("[0,\(width),0,0,\(resolution)]", "[0,\(height),0,0,\(resolution)]")
        return
            #"{"format":"gestures-trace","version":1,"devices":[{"name":"Atmel maXTouch Touchscreen","id":[24,0,0,0],"properties":[1],"codes":{"0":[0,1,2,3],"1":[330],"3":[0,1,47,53,54,57]},"absinfo":{"0":\#(axis),"1":\#(vertical),"47":[0,9,0,0,0],"53":\#(axis),"54":\#(vertical),"57":[0,65535,0,0,0]}}]}"#
    }

    /// A JSON trace of one touchscreen (see `touchscreenHeader`): one finger lands at
    /// (400, 240) at `times[0]`, moves `step` units right each frame, and lifts at the last time.
    static func touchscreenTrace(
        times: [Int64], width: Int64 = 799, height: Int64 = 479, resolution: Int = 0, step: Int = 1
    ) -> String {
        var lines = [touchscreenHeader(width: width, height: height, resolution: resolution)]
        for (index, time) in times.enumerated() {
            let events =
                index == 0
                ? "[[3,47,0],[3,57,1],[3,53,400],[3,54,240],[3,0,400],[3,1,240],[1,330,1],[0,0,0]]"
                : index == times.count - 1
                    ? "[[3,47,0],[3,57,-1],[1,330,0],[0,0,0]]"
                    : "[[3,47,0],[3,53,\(400 + index * step)],[3,54,240],[0,0,0]]"
            lines.append(#"{"d":0,"t":\#(time),"e":\#(events)}"#)
        }
        lines.append(#"{"end":{"frames":\#(times.count),"events":\#(8 + 4 * (times.count - 2) + 4)}}"#)
        return lines.joined(separator: "\n") + "\n"
    }
}
