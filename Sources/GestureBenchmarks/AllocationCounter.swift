import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts heap allocations (`malloc`, `calloc`, `realloc` and the aligned
/// allocators), when the process runs with the counting library preloaded:
/// `LD_PRELOAD=.build/release/libGesturesAllocationCounter.so`, built by
/// `swift build` from `Tools/allocation-counter`. Without it, counts are nil.
///
/// Every Swift heap object (class instances, array, dictionary, set and
/// string buffers, closure contexts, existential boxes) comes from `malloc`,
/// so the count is complete for Swift code and C code alike.
///
///     let counted = AllocationCounter.counting { (0..<1000).map { $0 * 2 }.count }
///     counted.count?.allocations   // 1 (the new array), or nil without the library
///
/// Counts are process-wide: allocations on other threads during `body` count too.
public enum AllocationCounter {
    /// Allocations and bytes counted during one call of ``counting(_:)``.
    public struct Count: Sendable, Hashable {
        /// The number of allocations.
        public var allocations: Int
        /// The bytes they asked for.
        public var bytes: Int

        /// `allocations` allocations of `bytes` bytes in all.
        public init(allocations: Int, bytes: Int) {
            self.allocations = allocations
            self.bytes = bytes
        }
    }

    /// The file name of the counting library.
    public static let libraryName = "libGesturesAllocationCounter.so"

    /// The environment variable through which the dynamic loader preloads it.
    public static let preloadVariable = "LD_PRELOAD"

    /// Whether the counting library is loaded in this process.
    public static var isAvailable: Bool { functions != nil }

    /// The allocations counted since the process started, or nil when the
    /// counting library is not loaded.
    public static var totals: Count? {
        functions.map { Count(allocations: Int($0.count()), bytes: Int($0.bytes())) }
    }

    /// Runs `body` and returns its result with the allocations made while it
    /// ran, or nil as the count when the counting library is not loaded.
    /// Calls may nest; each sees the allocations made while it ran.
    public static func counting<Result>(_ body: () throws -> Result) rethrows -> (result: Result, count: Count?) {
        guard let functions else { return (try body(), nil) }
        let allocations = functions.count(), bytes = functions.bytes()
        let result = try body()
        let count = Count(allocations: Int(functions.count() &- allocations), bytes: Int(functions.bytes() &- bytes))
        return (result, count)
    }

    /// The counting library beside `executable` (the running program by
    /// default), when it exists: what to preload to count.
    public static func library(besideExecutable executable: URL? = Bundle.main.executableURL) -> URL? {
        guard let library = executable?.deletingLastPathComponent().appendingPathComponent(libraryName),
            FileManager.default.fileExists(atPath: library.path)
        else { return nil }
        return library
    }

    private typealias Counter = @convention(c) () -> UInt64

    /// The library's two counters, looked up in the process's global scope.
    private static let functions: (count: Counter, bytes: Counter)? = {
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        guard let count = dlsym(everywhere, "gestures_allocation_count"),
            let bytes = dlsym(everywhere, "gestures_allocated_bytes")
        else { return nil }
        return (unsafeBitCast(count, to: Counter.self), unsafeBitCast(bytes, to: Counter.self))
    }()
}
