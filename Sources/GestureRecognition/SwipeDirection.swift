import InputChecks

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One of the eight compass directions a swipe can take.
///
/// Axis convention: y grows downwards, as on screens and touchpads. A
/// displacement with a negative `dy` goes **up**, a positive `dx` goes
/// **right**. Angles are measured from the positive x axis (right) and grow
/// clockwise as seen on the screen, which is what `atan2(dy, dx)` gives in
/// y-down coordinates and what libinput uses for its pinch angle.
///
/// The raw values are the names of the JSON contract (`"up"`, `"up_left"`, ...):
///
///     SwipeDirection.upLeft.rawValue   // "up_left"
///     SwipeDirection.up.opposite       // .down
///     SwipeDirection.right.angleDegrees  // 0
///     SwipeDirection.down.angleDegrees   // 90
public enum SwipeDirection: String, CaseIterable, Codable, Hashable, Sendable {
    case up
    case down
    case left
    case right
    case upLeft = "up_left"
    case upRight = "up_right"
    case downLeft = "down_left"
    case downRight = "down_right"

    /// The four axis-aligned directions, clockwise from up.
    public static let cardinal: [SwipeDirection] = [.up, .right, .down, .left]

    /// All eight directions, clockwise from up (the order of the compass).
    public static let clockwise: [SwipeDirection] = [
        .up, .upRight, .right, .downRight, .down, .downLeft, .left, .upLeft,
    ]

    /// The position of this direction on the compass: 0 for up, then one step
    /// per 45 degrees clockwise (2 for right, 4 for down, 6 for left).
    public var compassIndex: Int {
        switch self {
        case .up: 0
        case .upRight: 1
        case .right: 2
        case .downRight: 3
        case .down: 4
        case .downLeft: 5
        case .left: 6
        case .upLeft: 7
        }
    }

    /// The direction at `compassIndex` (taken modulo 8, so -1 is up-left).
    public init(compassIndex: Int) {
        let index = ((compassIndex % 8) + 8) % 8
        self = SwipeDirection.clockwise[index]
    }

    /// Whether this is one of the four diagonal directions.
    public var isDiagonal: Bool { compassIndex % 2 == 1 }

    /// The direction pointing the other way (up for down, up-left for down-right).
    public var opposite: SwipeDirection { SwipeDirection(compassIndex: compassIndex + 4) }

    /// The angle of this direction in degrees, in (-180, 180]: measured from
    /// the positive x axis and clockwise positive on screen (y grows
    /// downwards), as `atan2(dy, dx)` would give.
    ///
    ///     SwipeDirection.right.angleDegrees     // 0
    ///     SwipeDirection.downRight.angleDegrees // 45
    ///     SwipeDirection.up.angleDegrees        // -90
    ///     SwipeDirection.left.angleDegrees      // 180
    public var angleDegrees: Double {
        // Compass index 2 (right) is 0 degrees; each step is 45 degrees clockwise.
        let degrees = Double((compassIndex - 2) * 45)
        return degrees > 180 ? degrees - 360 : degrees
    }

    /// The vector of length 1 pointing this way, in y-down coordinates
    /// (up is `(0, -1)`, down-right is `(0.7071..., 0.7071...)`).
    public var unitVector: Point {
        let d = 0.5.squareRoot()
        switch self {
        case .up: return Point(x: 0, y: -1)
        case .down: return Point(x: 0, y: 1)
        case .left: return Point(x: -1, y: 0)
        case .right: return Point(x: 1, y: 0)
        case .upLeft: return Point(x: -d, y: -d)
        case .upRight: return Point(x: d, y: -d)
        case .downLeft: return Point(x: -d, y: d)
        case .downRight: return Point(x: d, y: d)
        }
    }

    /// Whether `other` is in a neighbouring compass sector, 45 degrees away
    /// (up-left and up-right are the neighbours of up). A direction is not its
    /// own neighbour.
    ///
    /// libinput compares the directions of two fingers this way: the same or
    /// a neighbouring sector means they move together (scroll or swipe),
    /// anything else means a pinch. That test reads
    /// `a == b || a.isNeighbour(of: b)`.
    public func isNeighbour(of other: SwipeDirection) -> Bool {
        let steps = ((compassIndex - other.compassIndex) % 8 + 8) % 8
        return steps == 1 || steps == 7
    }
}

extension SwipeDirection {
    /// Classifies a displacement in millimetres into a direction: 4 or 8
    /// ways, with a minimum distance and a dead zone between sectors.
    ///
    /// Sectors are centred on their direction: in 8-way mode each is 45 degrees
    /// wide (right covers -22.5...22.5), in 4-way mode 90 degrees (right covers
    /// -45...45). The dead zone is a band `deadZoneDegrees` wide centred on
    /// every boundary between two sectors; a displacement inside it is
    /// ambiguous and gives `nil`. So is one shorter than
    /// `minimumDistanceMillimeters`, a zero displacement, and one with a NaN
    /// or infinite component.
    ///
    ///     let eight = SwipeDirection.Classifier(ways: .eight, minimumDistanceMillimeters: 10, deadZoneDegrees: 10)
    ///     eight.direction(dx: 20, dy: -20)  // .upRight
    ///     eight.direction(dx: 20, dy: -8)   // nil: 21.8 degrees above the x axis, within 5 of the 22.5 boundary
    ///     eight.direction(dx: 5, dy: 0)     // nil: shorter than 10 mm
    ///
    ///     let four = SwipeDirection.Classifier(ways: .four, minimumDistanceMillimeters: 10, deadZoneDegrees: 10)
    ///     four.direction(dx: 20, dy: -8)    // .right
    ///     four.direction(dx: 20, dy: -20)   // nil: on the 45-degree boundary
    ///
    /// - Complexity: O(1).
    public struct Classifier: Hashable, Sendable, Codable {
        /// How many directions the classifier distinguishes.
        public enum Ways: Int, Hashable, Sendable, Codable, CaseIterable {
            /// Up, right, down, left: sectors 90 degrees wide.
            case four = 4
            /// The four axes and the four diagonals: sectors 45 degrees wide.
            case eight = 8

            /// The directions this mode can give, clockwise from up.
            public var directions: [SwipeDirection] {
                switch self {
                case .four: SwipeDirection.cardinal
                case .eight: SwipeDirection.clockwise
                }
            }

            /// The width of one sector in degrees (90 or 45).
            public var sectorDegrees: Double { 360 / Double(rawValue) }
        }

        /// Whether to classify into 4 or 8 directions.
        public var ways: Ways
        /// The shortest displacement that has a direction, in millimetres.
        /// A displacement exactly this long is classified.
        public var minimumDistanceMillimeters: Double
        /// The total width, in degrees, of the ambiguous band centred on each
        /// boundary between sectors: half of it lies on either side. Zero means
        /// no dead zone; a whole sector's width leaves only the exact sector
        /// centres, and more leaves nothing. Negative or NaN widths count as zero.
        public var deadZoneDegrees: Double

        /// A classifier with the given mode and thresholds.
        ///
        /// The defaults (8 ways, 10 mm, 10 degrees) suit a touchpad swipe: long
        /// enough to be intended, with a 5-degree margin either side of each
        /// 22.5-degree boundary.
        public init(
            ways: Ways = .eight,
            minimumDistanceMillimeters: Double = 10 /* mm */,
            deadZoneDegrees: Double = 10 /* degrees */
        ) {
            self.ways = ways
            self.minimumDistanceMillimeters = minimumDistanceMillimeters
            self.deadZoneDegrees = deadZoneDegrees
        }

        /// The direction of the displacement `(dx, dy)` in millimetres (y grows
        /// downwards: a negative `dy` is up), or `nil` when it is too short,
        /// inside a dead zone, zero, or not finite.
        public func direction(dx: Double, dy: Double) -> SwipeDirection? {
            guard dx.isFinite, dy.isFinite, dx != 0 || dy != 0 else { return nil }
            let length = (dx * dx + dy * dy).squareRoot()
            // `length` overflows to infinity only for enormous finite components;
            // such a displacement is certainly long enough.
            guard !(length < minimumDistanceMillimeters) else { return nil }

            let sector = ways.sectorDegrees
            // Clockwise from up, in [0, 360): up is 0, right is 90.
            var bearing = atan2(dy, dx) * 180 / Double.pi + 90
            if bearing < 0 { bearing += 360 }
            // Offset so that sector k spans [k * sector, (k + 1) * sector).
            var shifted = bearing + sector / 2
            if shifted >= 360 { shifted -= 360 }
            let index = Int(shifted / sector) % ways.rawValue
            let withinSector = shifted - Double(index) * sector
            let distanceToBoundary = min(withinSector, sector - withinSector)
            let halfDeadZone = deadZoneDegrees > 0 ? deadZoneDegrees / 2 : 0
            guard !(distanceToBoundary < halfDeadZone) else { return nil }
            return ways.directions[index]
        }

        /// The direction of the displacement from `start` to `end`, both in
        /// millimetres; see ``direction(dx:dy:)``.
        public func direction(from start: Point, to end: Point) -> SwipeDirection? {
            direction(dx: end.x - start.x, dy: end.y - start.y)
        }
    }

    /// The direction of the displacement `(dx, dy)` in millimetres under
    /// `classifier`, or `nil` when it is too short or ambiguous.
    ///
    ///     SwipeDirection.classify(dx: 0, dy: -30)  // .up (y grows downwards)
    public static func classify(
        dx: Double, dy: Double, using classifier: Classifier = Classifier()
    ) -> SwipeDirection? {
        classifier.direction(dx: dx, dy: dy)
    }
}

extension SwipeDirection: ClosedWord {
    /// The directions' names (`"up"`, `"down_left"`, ...) clockwise from up:
    /// a file's direction is read as one of these.
    public static let closedWords = ClosedWords("direction", clockwise.map(\.rawValue))
}

extension SwipeDirection.Classifier {
    private enum CodingKeys: String, CodingKey { case ways, minimumDistanceMillimeters, deadZoneDegrees }

    /// The range of `minimumDistanceMillimeters` a configuration may set: 0 to 1,000 mm.
    public static let minimumDistanceRange = NumberRange(0...1_000)
    /// The range of `deadZoneDegrees` a configuration may set: 0 to 90 degrees.
    public static let deadZoneRange = NumberRange(0...90)

    /// Reads a classifier; missing keys keep the defaults, and every value is
    /// checked (`ways` 4 or 8, the ranges above).
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.object(keyedBy: CodingKeys.self)
        if c.contains(.ways), !((try? c.decodeNil(forKey: .ways)) ?? false) {
            let count = (try? c.decode(Double.self, forKey: .ways)).flatMap { Int(exactly: $0) }
            guard let count, let ways = Ways(rawValue: count) else {
                throw InvalidValue(codingPath: c.codingPath + [CodingKeys.ways], message: "must be 4 or 8")
            }
            self.ways = ways
        }
        if let value = try c.decodeNumber(forKey: .minimumDistanceMillimeters, in: Self.minimumDistanceRange) {
            minimumDistanceMillimeters = value
        }
        if let value = try c.decodeNumber(forKey: .deadZoneDegrees, in: Self.deadZoneRange) { deadZoneDegrees = value }
    }
}
