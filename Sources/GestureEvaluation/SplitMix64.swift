/// A small, fast, seedable generator (SplitMix64), so evaluations repeat exactly.
///
///     var random = SplitMix64(seed: 1)
///     random.sample(3, from: 10)   // three distinct indices in 0..<10, the same every run
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound`.
    public mutating func next(below bound: Int) -> Int {
        Int(next(upperBound: UInt64(bound)))
    }

    /// `count` distinct indices in `0..<n`, in random order.
    public mutating func sample(_ count: Int, from n: Int) -> [Int] {
        var indices = Array(0..<n)
        for i in 0..<min(count, n) {
            let j = i + next(below: n - i)
            indices.swapAt(i, j)
        }
        return Array(indices.prefix(count))
    }
}
