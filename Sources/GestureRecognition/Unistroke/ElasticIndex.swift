/// The elastic matcher's templates, prepared at training time for a fast
/// search that gives the same outcomes as scoring every template in full.
///
/// The search is a cascade. Each template keeps, for every point index *i*,
/// the box around its points and its step directions within the band
/// (*i* - band ... *i* + band): LB_Keogh's envelope. No warping path can pass
/// row *i* more cheaply than the candidate's point *i* can come to that box,
/// so the sum over the rows is a lower bound of the template's cost, at
/// O(*n*) instead of O(*n* x band). Templates are grouped (same name, at most
/// ``groupSize`` each) under the union of their envelopes, a bound for the
/// whole group. The search scores groups, then templates, in order of their
/// bounds, skips all whose bound exceeds the best cost so far, and stops each
/// dynamic time warping once its cheapest cell in a row plus the bounds of
/// the rows left exceeds it.
///
/// Bounds only skip work: every template that could score as high as the best
/// is scored in full, with the same arithmetic as ``MatchContext``'s plain
/// loop, and ties go to the lower template index, as in the plain loop.
struct ElasticIndex: Sendable {
    /// Points per stroke (the configured resample count).
    let count: Int
    /// The Sakoe-Chiba band, in points either side of the diagonal.
    let band: Int
    /// The cost of the distance term per unit of distance.
    let distanceScale: Double
    /// The weight of the step-direction term.
    let turnWeight: Double
    /// A bound must exceed the best cost by this much to skip a template, so
    /// that rounding in the bound's own arithmetic never skips a tie.
    let margin: Double

    /// Per template, per point: x, y, then the unit direction of the step
    /// from it (the last point repeats the last step), contiguous.
    private(set) var samples: [Double] = []
    /// Per template, per point: the envelope within the band (see ``Envelope``).
    private(set) var envelopes: [Double] = []
    /// The groups: member template indices and the union of their envelopes.
    private(set) var groups: [Group] = []
    private(set) var groupEnvelopes: [Double] = []
    /// The group that takes the next template of each name.
    private var openGroup: [String: Int] = [:]

    /// Templates per group: small enough that a group's envelope stays
    /// close to its members', large enough to skip most of a big library.
    static let groupSize = 8
    /// Doubles per point in ``samples``.
    static let sampleStride = 4
    /// Doubles per point in an envelope: min and max of x, y, dx, dy.
    static let envelopeStride = 8

    struct Group: Sendable {
        var members: [Int] = []
    }

    init(count: Int) {
        self.count = count
        band = max(1, Int((Double(count) * MatchContext.elasticBandFraction).rounded()))
        let weight = MatchContext.elasticDirectionWeight
        distanceScale = 1 / UnistrokePipeline.halfDiagonal / (1 + weight)
        turnWeight = weight / (1 + weight)
        margin = 1e-9 * Double(count)
    }

    var templateCount: Int { samples.count / (count * Self.sampleStride) }

    /// Adds the template at the next index; `shape` holds `count` points.
    mutating func add(_ shape: NormalizedStroke, name: String) {
        let n = count
        precondition(shape.points.count == 2 * n && shape.directions.count == 2 * (n - 1))
        let start = samples.count
        for i in 0..<n {
            let d = min(i, n - 2)
            samples += [shape.points[2 * i], shape.points[2 * i + 1], shape.directions[2 * d], shape.directions[2 * d + 1]]
        }
        let index = templateCount - 1
        let envelopeStart = envelopes.count
        samples.withUnsafeBufferPointer { s in
            for i in 0..<n {
                var box = Envelope.empty
                for j in max(0, i - band)...min(n - 1, i + band) {
                    box.include(s.baseAddress! + start + Self.sampleStride * j)
                }
                envelopes += box.values
            }
        }

        let group: Int
        if let open = openGroup[name], groups[open].members.count < Self.groupSize {
            group = open
        } else {
            group = groups.count
            groups.append(Group())
            groupEnvelopes += Array(repeating: 0, count: n * Self.envelopeStride)
            for i in 0..<n { Envelope.empty.store(into: &groupEnvelopes, at: (group * n + i) * Self.envelopeStride) }
            openGroup[name] = group
        }
        groups[group].members.append(index)
        for i in 0..<n {
            let at = (group * n + i) * Self.envelopeStride
            for k in stride(from: 0, to: Self.envelopeStride, by: 2) {
                groupEnvelopes[at + k] = min(groupEnvelopes[at + k], envelopes[envelopeStart + i * Self.envelopeStride + k])
                groupEnvelopes[at + k + 1] = max(groupEnvelopes[at + k + 1], envelopes[envelopeStart + i * Self.envelopeStride + k + 1])
            }
        }
    }

    /// Bounds of x, y, dx and dy over some points: min, max of each.
    struct Envelope {
        var values: [Double]

        static var empty: Envelope {
            Envelope(values: [.infinity, -.infinity, .infinity, -.infinity, .infinity, -.infinity, .infinity, -.infinity])
        }

        mutating func include(_ sample: UnsafePointer<Double>) {
            for k in 0..<4 {
                values[2 * k] = min(values[2 * k], sample[k])
                values[2 * k + 1] = max(values[2 * k + 1], sample[k])
            }
        }

        func store(into array: inout [Double], at offset: Int) {
            for k in 0..<values.count { array[offset + k] = values[k] }
        }
    }
}

// MARK: Search

extension ElasticIndex {
    /// The best template for `candidate` (`count` points): its index and
    /// score, the first in index order among equal scores; nil without templates.
    func best(for candidate: NormalizedStroke) -> (index: Int, score: Double)? {
        let templates = templateCount
        guard templates > 0 else { return nil }
        let n = count, groupCount = groups.count
        return withCandidate(candidate) { query in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * (n + 1) + groupCount + Self.groupSize) { scratch in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: groupCount + Self.groupSize) { order in
                let rows = scratch.baseAddress!                 // 2 x (n + 1): the DTW rows
                let tail = rows + 2 * (n + 1)                   // n + 1: bounds of the rows left
                let groupBounds = tail + (n + 1)                // one per group
                let memberBounds = groupBounds + groupCount     // one per member of a group
                let memberOrder = order.baseAddress! + groupCount
                var state = SearchState()

                envelopes.withUnsafeBufferPointer { envelopes in
                groupEnvelopes.withUnsafeBufferPointer { groupEnvelopes in
                samples.withUnsafeBufferPointer { samples in
                groups.withUnsafeBufferPointer { groups in
                    for g in 0..<groupCount {
                        groupBounds[g] = lowerBound(query, groupEnvelopes.baseAddress! + g * n * Self.envelopeStride, rows: nil)
                    }
                    // Groups in order of their bounds, popped from a heap: the
                    // search usually stops after a few.
                    var heap = IndexHeap(keys: groupBounds, slots: order.baseAddress!)
                    for g in 0..<groupCount { heap.push(g) }
                    while let g = heap.pop() {
                        if let best = state.cost, groupBounds[g] > best + margin { break }
                        let members = groups[g].members
                        for (m, k) in members.enumerated() {
                            // A group of one is bounded by its member's own envelope.
                            memberBounds[m] = members.count == 1 ? groupBounds[g]
                                : lowerBound(query, envelopes.baseAddress! + k * n * Self.envelopeStride, rows: nil)
                            // Insertion sort by bound: at most groupSize members.
                            var slot = m
                            while slot > 0 && memberBounds[memberOrder[slot - 1]] > memberBounds[m] {
                                memberOrder[slot] = memberOrder[slot - 1]
                                slot -= 1
                            }
                            memberOrder[slot] = m
                        }
                        for position in 0..<members.count {
                            let m = memberOrder[position], k = members[m]
                            if let best = state.cost, memberBounds[m] > best + margin { break }
                            // The bound of each row, summed from the end, for early abandoning.
                            _ = lowerBound(query, envelopes.baseAddress! + k * n * Self.envelopeStride, rows: tail)
                            let limit = state.cost.map { $0 + margin } ?? .infinity
                            guard let cost = warpingCost(query, samples.baseAddress! + k * n * Self.sampleStride,
                                                         rows: rows, tail: tail, limit: limit) else { continue }
                            state.consider(index: k, cost: cost, count: n)
                        }
                    }
                }}}}
                // Every score is 0 when the best is: the plain loop keeps the first template.
                guard let index = state.index, state.score > 0 else { return (0, 0) }
                return (index, state.score)
            }}
        }
    }

    /// A binary min-heap of indices ordered by `keys`, in memory the caller owns.
    struct IndexHeap {
        let keys: UnsafePointer<Double>
        let slots: UnsafeMutablePointer<Int>
        var count = 0

        init(keys: UnsafeMutablePointer<Double>, slots: UnsafeMutablePointer<Int>) {
            self.keys = UnsafePointer(keys)
            self.slots = slots
        }

        mutating func push(_ index: Int) {
            var child = count
            count += 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard keys[index] < keys[slots[parent]] else { break }
                slots[child] = slots[parent]
                child = parent
            }
            slots[child] = index
        }

        mutating func pop() -> Int? {
            guard count > 0 else { return nil }
            let top = slots[0]
            count -= 1
            let last = slots[count]
            var parent = 0
            while true {
                var child = 2 * parent + 1
                guard child < count else { break }
                if child + 1 < count && keys[slots[child + 1]] < keys[slots[child]] { child += 1 }
                guard keys[slots[child]] < keys[last] else { break }
                slots[parent] = slots[child]
                parent = child
            }
            slots[parent] = last
            return top
        }
    }

    /// Every template's score for `candidate`, in template order.
    func scores(for candidate: NormalizedStroke) -> [Double] {
        let n = count
        return withCandidate(candidate) { query in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * (n + 1)) { scratch in
                let rows = scratch.baseAddress!, tail = rows + 2 * (n + 1)
                for i in 0...n { tail[i] = 0 }
                return samples.withUnsafeBufferPointer { samples in
                    (0..<templateCount).map { k in
                        let cost = warpingCost(query, samples.baseAddress! + k * n * Self.sampleStride, rows: rows, tail: tail, limit: .infinity)
                        return Self.score(cost: cost ?? .infinity, count: n)
                    }
                }
            }
        }
    }

    /// The score of a warping cost, as ``MatchContext`` maps it.
    static func score(cost: Double, count: Int) -> Double {
        guard cost.isFinite else { return 0 }
        let score = 1 - cost / Double(count)
        return score.isFinite ? max(0, min(1, score)) : 0
    }

    /// The best template so far, compared by score as the plain loop does.
    struct SearchState {
        var index: Int?
        var cost: Double?
        var score = -Double.infinity

        mutating func consider(index k: Int, cost c: Double, count: Int) {
            let s = ElasticIndex.score(cost: c, count: count)
            if index == nil || s > score || (s == score && k < index!) {
                index = k
                score = s
                cost = c
            }
        }
    }

    /// Calls `body` with the candidate laid out as the samples are.
    func withCandidate<R>(_ candidate: NormalizedStroke, _ body: (UnsafePointer<Double>) -> R) -> R {
        let n = count
        precondition(candidate.points.count == 2 * n && candidate.directions.count == 2 * (n - 1))
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: n * Self.sampleStride) { query in
            candidate.points.withUnsafeBufferPointer { p in
                candidate.directions.withUnsafeBufferPointer { d in
                    for i in 0..<n {
                        let di = min(i, n - 2)
                        query[4 * i] = p[2 * i]
                        query[4 * i + 1] = p[2 * i + 1]
                        query[4 * i + 2] = d[2 * di]
                        query[4 * i + 3] = d[2 * di + 1]
                    }
                }
            }
            return body(UnsafePointer(query.baseAddress!))
        }
    }

    /// LB_Keogh of the candidate `query` against `envelope`: for every row,
    /// the cheapest cost the row's point could have against any point inside
    /// the envelope. With `rows`, also stores the bounds of rows i..<n summed
    /// at `rows[i]` (and 0 at `rows[n]`).
    func lowerBound(_ query: UnsafePointer<Double>, _ envelope: UnsafePointer<Double>, rows: UnsafeMutablePointer<Double>?) -> Double {
        let n = count
        var total = 0.0
        var i = n - 1
        rows?[n] = 0
        while i >= 0 {
            let q = query + Self.sampleStride * i, e = envelope + Self.envelopeStride * i
            let ex = max(e[0] - q[0], 0, q[0] - e[1])
            let ey = max(e[2] - q[1], 0, q[1] - e[3])
            let turnFloor = 1 - (max(q[2] * e[4], q[2] * e[5]) + max(q[3] * e[6], q[3] * e[7]))
            total += (ex * ex + ey * ey).squareRoot() * distanceScale + turnWeight * max(turnFloor, 0)
            rows?[i] = total
            i -= 1
        }
        return total
    }

    /// The banded DTW cost of the candidate `query` against `template`, the
    /// same arithmetic as ``MatchContext``'s matcher; nil once it must exceed
    /// `limit` (the cheapest cell of a row plus `tail` of the rows after it).
    /// `rows` is scratch for 2 x (n + 1) values.
    func warpingCost(_ query: UnsafePointer<Double>, _ template: UnsafePointer<Double>,
                     rows: UnsafeMutablePointer<Double>, tail: UnsafePointer<Double>, limit: Double) -> Double? {
        let n = count, band = band
        let scale = distanceScale, weight = turnWeight
        let infinity = Double.infinity
        // Column j lives at [j + 1]; [0] is a wall of infinity.
        var previous = rows, current = rows + (n + 1)
        for j in 0...n { previous[j] = infinity; current[j] = infinity }
        // Row 0: the path starts at (0, 0) and can only move right.
        var left = 0.0, rowMinimum = infinity
        for j in 0...min(n - 1, band) {
            let value = left + cellCost(query, template + Self.sampleStride * j)
            previous[j + 1] = value
            left = value
            rowMinimum = min(rowMinimum, value)
        }
        if rowMinimum + tail[1] > limit { return nil }
        for i in 1..<n {
            let lo = max(0, i - band), hi = min(n - 1, i + band)
            let q = query + Self.sampleStride * i
            let px = q[0], py = q[1], pdx = q[2], pdy = q[3]
            current[lo] = infinity   // column lo - 1
            left = infinity          // current row, column j - 1
            rowMinimum = infinity
            var j = lo
            var t = template + Self.sampleStride * lo
            while j <= hi {
                let dx = px - t[0], dy = py - t[1]
                let turn = 1 - (pdx * t[2] + pdy * t[3])
                let cost = (dx * dx + dy * dy).squareRoot() * scale + weight * turn
                let before = min(min(previous[j + 1], previous[j]), left)
                let value = before + cost
                current[j + 1] = value
                left = value
                rowMinimum = min(rowMinimum, value)
                j += 1
                t += Self.sampleStride
            }
            if hi < n - 1 { current[hi + 2] = infinity }
            if rowMinimum + tail[i + 1] > limit { return nil }
            swap(&previous, &current)
        }
        return previous[n]
    }

    /// The cost of one cell, as in the loop above (for row 0).
    @inline(__always)
    func cellCost(_ q: UnsafePointer<Double>, _ t: UnsafePointer<Double>) -> Double {
        let dx = q[0] - t[0], dy = q[1] - t[1]
        let turn = 1 - (q[2] * t[2] + q[3] * t[3])
        return (dx * dx + dy * dy).squareRoot() * distanceScale + turnWeight * turn
    }
}
