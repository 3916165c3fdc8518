import Foundation

/// Runs the built `gestures` executable, as a user would.
struct ToolRunner {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
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

    /// Runs the tool with `arguments` in `directory`, with `environment` added to this process's.
    static func run(_ arguments: [String], in directory: URL = repository, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
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
            stderr: String(decoding: errData, as: UTF8.self))
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
}
