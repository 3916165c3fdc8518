/// The elastic matcher's templates, prepared at training time for a search
/// that gives the same outcomes as scoring every template in full, in a
/// fraction of the time.
///
/// Lower bounds (LB_Keogh): each template keeps, for every point index *i*,
/// the box around its points and step directions within the band
/// (*i* - band ... *i* + band), its envelope. No warping path can pass row
/// *i* more cheaply than the candidate's point *i* can come to that box, so
/// the sum over the rows bounds the template's cost from below, at O(*n*)
/// instead of O(*n* x band).
///
/// A tree of envelopes: templates of one name sit in groups of at most
/// ``groupSize`` under the union of their envelopes, and the groups of a name
/// under the union of theirs; a node's bound holds for everything below it.
/// The search is best first: it takes the node with the lowest bound, opens
/// it (bounds its children) or, for a template, runs the banded DTW, and
/// stops when the lowest bound left exceeds the best cost found. Each DTW
/// stops as soon as its cheapest cell in a row plus the bounds of the rows
/// left exceeds that cost too.
///
/// Bounds only skip work: every template that could score as high as the
/// best is scored in full, with the plain loop's arithmetic (see the
/// reference in the matching tests), and ties go to the lower template index.
/// The data is laid out a field at a time (all x, then all y, ...), so that
/// two points go through each vector instruction; nothing is allocated per
/// recognition.
struct ElasticIndex: Sendable {
    /// Points per stroke (the configured resample count).
    let count: Int
    /// Doubles per field of a stroke or an envelope: `count` rounded up to an
    /// even number above it, so vector loops may read one point past the end.
    let stride: Int
    /// The Sakoe-Chiba band, in points either side of the diagonal.
    let band: Int
    /// The cost of the distance term per unit of distance.
    let distanceScale: Double
    /// The weight of the step-direction term.
    let turnWeight: Double
    /// A bound must exceed the best cost by this much to skip a template, so
    /// that rounding in the bounds' own arithmetic never skips a tie.
    let margin: Double

    /// Per template, 4 fields of ``stride``: x, y, and the unit direction
    /// (dx, dy) of the step from each point (the last point repeats the last
    /// step). Padding points are (0, 0, 1, 0).
    private(set) var samples: [Double] = []
    /// Per node, 8 fields of ``stride``: min x, max x, min y, max y, min dx,
    /// max dx, min dy, max dy within the band (see ``Node``).
    private(set) var envelopes: [Double] = []
    /// The tree; ``roots`` are the nodes of each name.
    private(set) var nodes: [Node] = []
    private(set) var roots: [Int] = []
    /// Per name: its root node and the group that takes its next template.
    private var nameNodes: [String: (root: Int, openGroup: Int)] = [:]

    /// Templates per group, and groups per name before a name's node is
    /// worth its own bound: a group's envelope stays close to its members'.
    static let groupSize = 8
    /// Fields of a stroke and of an envelope.
    static let sampleFields = 4, envelopeFields = 8

    /// A template (a leaf) or a group of nodes under the union of their envelopes.
    struct Node: Sendable {
        /// The template's index, for a leaf.
        var template: Int?
        /// The nodes below, for a group.
        var children: [Int] = []
    }

    init(count: Int) {
        self.count = count
        stride = (count + 2) & ~1
        band = max(1, Int((Double(count) * MatchContext.elasticBandFraction).rounded()))
        let weight = MatchContext.elasticDirectionWeight
        distanceScale = 1 / UnistrokePipeline.halfDiagonal / (1 + weight)
        turnWeight = weight / (1 + weight)
        margin = 1e-9 * Double(count)
    }

    var templateCount: Int { samples.count / (stride * Self.sampleFields) }

    /// Adds the template at the next index; `shape` holds `count` points.
    ///
    /// - Complexity: O(*n* x band).
    mutating func add(_ shape: NormalizedStroke, name: String) {
        let n = count, stride = stride
        precondition(shape.points.count == 2 * n && shape.directions.count == 2 * (n - 1))
        let index = templateCount
        let base = samples.count
        samples += Array(repeating: 0, count: Self.sampleFields * stride)
        for i in 0..<stride {
            let d = min(i, n - 2)
            samples[base + i] = i < n ? shape.points[2 * i] : 0
            samples[base + stride + i] = i < n ? shape.points[2 * i + 1] : 0
            samples[base + 2 * stride + i] = i < n ? shape.directions[2 * d] : 1
            samples[base + 3 * stride + i] = i < n ? shape.directions[2 * d + 1] : 0
        }
        let leaf = addNode(Node(template: index))
        let e = leaf * Self.envelopeFields * stride
        for i in 0..<stride {
            for field in 0..<Self.sampleFields {
                var low = Double.infinity, high = -Double.infinity
                if i < n {
                    for j in max(0, i - band)...min(n - 1, i + band) {
                        low = min(low, samples[base + field * stride + j])
                        high = max(high, samples[base + field * stride + j])
                    }
                } else {
                    // Padding: the candidate's padding point, so the bound adds 0.
                    low = samples[base + field * stride + i]
                    high = low
                }
                envelopes[e + 2 * field * stride + i] = low
                envelopes[e + (2 * field + 1) * stride + i] = high
            }
        }

        // File it under its name: a new group when the open one is full, and
        // the name's node takes the union.
        var place =
            nameNodes[name]
            ?? {
                let group = addNode(Node())
                let root = addNode(Node(children: [group]))
                roots.append(root)
                return (root, group)
            }()
        if nodes[place.openGroup].children.count == Self.groupSize {
            place.openGroup = addNode(Node())
            nodes[place.root].children.append(place.openGroup)
        }
        nameNodes[name] = place
        nodes[place.openGroup].children.append(leaf)
        widen(place.openGroup, by: leaf)
        widen(place.root, by: leaf)
    }

    /// Appends `node` with an empty envelope (every minimum +inf, maximum -inf).
    private mutating func addNode(_ node: Node) -> Int {
        nodes.append(node)
        for field in 0..<Self.envelopeFields {
            envelopes += Array(repeating: field % 2 == 0 ? .infinity : -.infinity, count: stride)
        }
        return nodes.count - 1
    }

    /// Grows the envelope of `node` to cover that of `other`.
    private mutating func widen(_ node: Int, by other: Int) {
        let size = Self.envelopeFields * stride
        let a = node * size, b = other * size
        for field in 0..<Self.envelopeFields {
            for i in 0..<stride {
                let k = field * stride + i
                envelopes[a + k] = field % 2 == 0 ? min(envelopes[a + k], envelopes[b + k]) : max(envelopes[a + k], envelopes[b + k])
            }
        }
    }
}

// MARK: Search

extension ElasticIndex {
    /// The best template for the candidate `query` (see
    /// ``withQuery(_:configuration:_:)``): its index and score, the first in
    /// index order among equal scores; nil without templates (or without
    /// templates of another name than `excluded`, whose templates are not searched).
    func best(for query: UnsafePointer<Double>, excluding excluded: String? = nil) -> (index: Int, score: Double)? {
        let skipped = excluded.flatMap { nameNodes[$0]?.root }
        guard templateCount > 0, roots.contains(where: { $0 != skipped }) else { return nil }
        let n = count, stride = stride, nodeCount = nodes.count
        let rowsSize = 2 * (n + 3)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: rowsSize + 3 * stride + (n + 1) + nodeCount) { scratch in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: nodeCount) { slots in
                let rows = scratch.baseAddress!  // DTW rows
                let costs = rows + rowsSize  // DTW costs of one row, and...
                let reached = costs + stride  // ...each cell's cost by the row above
                let rowBounds = reached + stride  // each row's bound
                let tail = rowBounds + stride  // the bounds of rows i..<n summed
                let bounds = tail + (n + 1)  // one per node
                var state = SearchState()
                var heap = IndexHeap(keys: UnsafePointer(bounds), slots: slots.baseAddress!)
                tail.initialize(repeating: 0, count: n + 1)

                envelopes.withUnsafeBufferPointer { envelopes in
                    samples.withUnsafeBufferPointer { samples in
                        nodes.withUnsafeBufferPointer { nodes in
                            let envelopeSize = Self.envelopeFields * stride
                            for node in roots where node != skipped {
                                bounds[node] = lowerBound(query, envelopes.baseAddress! + node * envelopeSize, rows: rowBounds)
                                heap.push(node)
                            }
                            while let node = heap.pop() {
                                if let best = state.cost, bounds[node] > best + margin { break }
                                if let k = nodes[node].template {
                                    let template = samples.baseAddress! + k * Self.sampleFields * stride
                                    var limit = Double.infinity
                                    if let best = state.cost {
                                        // The bound of the rows after each row, to abandon early.
                                        limit = best + margin
                                        _ = lowerBound(query, envelopes.baseAddress! + node * envelopeSize, rows: rowBounds)
                                        for i in (0..<n).reversed() { tail[i] = tail[i + 1] + rowBounds[i] }
                                    }
                                    if let cost = warpingCost(
                                        query, template, rows: rows, costs: costs, reached: reached, tail: tail, limit: limit)
                                    {
                                        state.consider(index: k, cost: cost, count: n)
                                    }
                                } else {
                                    let children = nodes[node].children
                                    for child in children {
                                        // An only child has its parent's envelope.
                                        bounds[child] =
                                            children.count == 1
                                            ? bounds[node]
                                            : lowerBound(query, envelopes.baseAddress! + child * envelopeSize, rows: rowBounds)
                                        heap.push(child)
                                    }
                                }
                            }
                        }
                    }
                }
                // Every score is 0 when the best is: the plain loop keeps the first template.
                guard let index = state.index, state.score > 0 else { return (0, 0) }
                return (index, state.score)
            }
        }
    }

    /// Every template's score for the candidate `query`, in template order.
    func scores(for query: UnsafePointer<Double>) -> [Double] {
        let n = count, stride = stride
        let rowsSize = 2 * (n + 3)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: rowsSize + 2 * stride + n + 1) { scratch in
            let rows = scratch.baseAddress!, costs = rows + rowsSize, reached = costs + stride, tail = reached + stride
            tail.initialize(repeating: 0, count: n + 1)
            return samples.withUnsafeBufferPointer { samples in
                (0..<templateCount).map { k in
                    let cost = warpingCost(
                        query, samples.baseAddress! + k * Self.sampleFields * stride,
                        rows: rows, costs: costs, reached: reached, tail: tail, limit: .infinity)
                    return Self.score(cost: cost ?? .infinity, count: n)
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

    /// A binary min-heap of indices ordered by `keys`, in memory the caller owns.
    struct IndexHeap {
        let keys: UnsafePointer<Double>
        let slots: UnsafeMutablePointer<Int>
        var count = 0

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
}

// MARK: Kernels

extension ElasticIndex {
    /// Normalises `raw` as the templates were and calls `body` with it laid
    /// out as ``samples`` are, in scratch memory; the reason when `raw` is
    /// not a stroke.
    static func withQuery<R>(
        _ raw: [Point], configuration: UnistrokeRecognizer.Configuration,
        _ body: (UnsafePointer<Double>) -> R
    ) -> Result<R, UnistrokeRecognizer.Degeneracy> {
        let n = configuration.resampleCount, stride = (n + 2) & ~1
        return NormalizedStroke.withNormalizedPoints(raw, configuration: configuration) { points in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: sampleFields * stride) { query in
                var direction = (0.0, 0.0)
                for i in 0..<stride {
                    if i < n - 1 { direction = NormalizedStroke.stepDirection(points, i + 1) }
                    let inside = i < n
                    query[i] = inside ? points[i].x : 0
                    query[stride + i] = inside ? points[i].y : 0
                    query[2 * stride + i] = inside ? direction.0 : 1
                    query[3 * stride + i] = inside ? direction.1 : 0
                }
                return body(UnsafePointer(query.baseAddress!))
            }
        }
    }

    typealias Pair = SIMD2<Double>

    @inline(__always)
    static func load(_ p: UnsafePointer<Double>) -> Pair {
        UnsafeRawPointer(p).loadUnaligned(as: Pair.self)
    }

    @inline(__always)
    static func store(_ value: Pair, _ p: UnsafeMutablePointer<Double>) {
        UnsafeMutableRawPointer(p).storeBytes(of: value, as: Pair.self)
    }

    /// The larger of each lane (no NaN arises here): one instruction.
    @inline(__always)
    static func maximum(_ a: Pair, _ b: Pair) -> Pair { a.replacing(with: b, where: a .< b) }

    /// The smaller of each lane, as `Swift.min` picks it.
    @inline(__always)
    static func minimum(_ a: Pair, _ b: Pair) -> Pair { a.replacing(with: b, where: b .< a) }

    /// LB_Keogh of the candidate `query` against `envelope`: for every row,
    /// the cheapest cost its point could have against any point inside the
    /// envelope, stored in `rows`; returns their sum.
    ///
    /// - Complexity: O(*n*), two rows per step.
    func lowerBound(_ query: UnsafePointer<Double>, _ envelope: UnsafePointer<Double>, rows: UnsafeMutablePointer<Double>) -> Double {
        let s = stride
        let zero = Pair(repeating: 0), one = Pair(repeating: 1)
        let scale = Pair(repeating: distanceScale), weight = Pair(repeating: turnWeight)
        var total = zero
        var i = 0
        while i < s {
            let x = Self.load(query + i), y = Self.load(query + s + i)
            let dx = Self.load(query + 2 * s + i), dy = Self.load(query + 3 * s + i)
            let e = envelope + i
            let outX = Self.maximum(Self.maximum(Self.load(e) - x, x - Self.load(e + s)), zero)
            let outY = Self.maximum(Self.maximum(Self.load(e + 2 * s) - y, y - Self.load(e + 3 * s)), zero)
            let along =
                Self.maximum(dx * Self.load(e + 4 * s), dx * Self.load(e + 5 * s))
                + Self.maximum(dy * Self.load(e + 6 * s), dy * Self.load(e + 7 * s))
            let bound = (outX * outX + outY * outY).squareRoot() * scale + weight * Self.maximum(one - along, zero)
            Self.store(bound, rows + i)
            total += bound
            i += 2
        }
        return total[0] + total[1]
    }

    /// The banded DTW cost of the candidate `query` against `template`, with
    /// the plain loop's arithmetic; nil once it must exceed `limit` (the
    /// cheapest cell of a row plus `tail` of the rows after it does).
    /// `rows` holds 2 x (n + 3) values, `costs` and `reached` ``stride``.
    func warpingCost(
        _ query: UnsafePointer<Double>, _ template: UnsafePointer<Double>,
        rows: UnsafeMutablePointer<Double>, costs: UnsafeMutablePointer<Double>,
        reached: UnsafeMutablePointer<Double>, tail: UnsafePointer<Double>, limit: Double
    ) -> Double? {
        let n = count, s = stride, band = band
        let scale = Pair(repeating: distanceScale), weight = Pair(repeating: turnWeight), one = Pair(repeating: 1)
        let infinity = Double.infinity
        // Column j lives at [j + 1]; [0] is a wall of infinity.
        var previous = rows, current = rows + (n + 3)
        for j in 0..<(n + 3) { previous[j] = infinity; current[j] = infinity }

        /// Each cell's own cost in row `i`, columns lo...hi (and perhaps
        /// hi + 1), two at a time: the plain loop's arithmetic in each lane.
        @inline(__always)
        func rowCosts(_ i: Int, _ lo: Int, _ hi: Int, above: UnsafePointer<Double>?) {
            let px = Pair(repeating: query[i]), py = Pair(repeating: query[s + i])
            let pdx = Pair(repeating: query[2 * s + i]), pdy = Pair(repeating: query[3 * s + i])
            var j = lo
            while j <= hi {
                let t = template + j
                let dx = px - Self.load(t), dy = py - Self.load(t + s)
                let turn = one - (pdx * Self.load(t + 2 * s) + pdy * Self.load(t + 3 * s))
                let cost = (dx * dx + dy * dy).squareRoot() * scale + weight * turn
                Self.store(cost, costs + j)
                if let above {
                    // min(a, b) + c rounds as min(a + c, b + c): rounding is monotonic.
                    Self.store(Self.minimum(Self.load(above + j + 1), Self.load(above + j)) + cost, reached + j)
                }
                j += 2
            }
        }

        // Row 0: the path starts at (0, 0) and moves right.
        let firstHi = min(n - 1, band)
        rowCosts(0, 0, firstHi, above: nil)
        var left = costs[0]
        previous[1] = left
        var rowMinimum = left
        for j in 1...firstHi {
            left = left + costs[j]
            previous[j + 1] = left
            rowMinimum = min(rowMinimum, left)
        }
        if rowMinimum + tail[1] > limit { return nil }

        for i in 1..<n {
            let lo = max(0, i - band), hi = min(n - 1, i + band)
            rowCosts(i, lo, hi, above: previous)
            current[lo] = infinity  // column lo - 1
            left = infinity
            rowMinimum = infinity
            for j in lo...hi {
                left = min(reached[j], left + costs[j])
                current[j + 1] = left
                rowMinimum = min(rowMinimum, left)
            }
            current[hi + 2] = infinity
            if rowMinimum + tail[i + 1] > limit { return nil }
            swap(&previous, &current)
        }
        return previous[n]
    }
}
