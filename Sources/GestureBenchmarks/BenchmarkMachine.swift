import Foundation

/// The machine a benchmark ran on, to print beside its figures.
///
///     BenchmarkMachine.current.processor   // "Intel(R) Xeon(R) CPU @ 2.20GHz"
public struct BenchmarkMachine: Sendable, Hashable {
    /// The processor's model name (`/proc/cpuinfo`), or "unknown".
    public var processor: String
    /// The cores this process may use.
    public var cores: Int
    /// The physical memory, in bytes.
    public var memoryBytes: UInt64
    /// The operating system's version string.
    public var system: String

    /// This machine.
    public static var current: BenchmarkMachine {
        let info = ProcessInfo.processInfo
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return BenchmarkMachine(
            processor: model ?? "unknown", cores: info.activeProcessorCount,
            memoryBytes: info.physicalMemory, system: info.operatingSystemVersionString)
    }
}
