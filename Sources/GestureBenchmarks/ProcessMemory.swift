import Foundation

/// This process's resident memory, from `/proc/self/status` (Linux only).
///
///     ProcessMemory.resetPeak()
///     // ... stream a trace ...
///     ProcessMemory.peakResidentBytes   // the most resident at once since the reset
public enum ProcessMemory {
    /// The resident set size now (`VmRSS`), in bytes; nil off Linux.
    public static var residentBytes: Int? { statusField("VmRSS:") }

    /// The largest resident set size since the process started or the last
    /// ``resetPeak()`` (`VmHWM`), in bytes; nil off Linux.
    public static var peakResidentBytes: Int? { statusField("VmHWM:") }

    /// Resets the peak to the current resident size, by writing 5 to
    /// `/proc/self/clear_refs` (Linux 4.0 and later). Returns whether it could.
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// Hands the memory freed so far back to the system, where the C
    /// library allows it (glibc's `malloc_trim`, found at run time), so that
    /// it does not count as resident. Returns whether it could.
    ///
    /// The corresponding C function is `malloc_trim`.
    @discardableResult
    public static func returnFreedMemory() -> Bool {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return false }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        return true
    }

    /// A `Name:   1234 kB` line of `/proc/self/status`, in bytes.
    private static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kilobytes = Int(line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
