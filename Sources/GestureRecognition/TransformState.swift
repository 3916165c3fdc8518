#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The translation, scale and rotation of a group of contacts since the
/// gesture began: the state behind pinch, rotate and multi-finger pan.
///
/// Feed it every frame's contacts with ``update(_:)``. Each update compares the
/// contacts present both before and after it (matched by `id`), so a finger
/// that joins or leaves re-bases the state: that update contributes no
/// movement, and the totals continue from where they were.
///
/// Conventions (y grows downwards, positions in millimetres):
/// - **Translation**: the movement of the centroid (mean position) of the
///   contacts, summed over updates; with no joins or leaves it is the current
///   centroid minus the starting one.
/// - **Scale**: the spread of the contacts relative to the start, where the
///   spread is their mean distance from their centroid. With two contacts it is
///   libinput's `current distance / starting distance`; with 3-5 it uses every
///   finger, so one finger moving alone changes it only a little.
/// - **Rotation**: in degrees, clockwise positive as seen on screen (as
///   libinput reports it), accumulated across updates so that several turns
///   give 720, 1080, ... without jumps at +-180. Each update's angle is the
///   circular mean of every contact's wrapped angle change about the centroid,
///   weighted by its distances from the centroid (the least-squares rotation):
///   a finger near the centroid, whose angle is mostly noise, counts little.
///   Per-update rotations must stay under 180 degrees to be seen the right way.
///
/// Degenerate input gives defined, bounded values, never NaN: contacts with
/// NaN or infinite coordinates are ignored; with fewer than two contacts in
/// common the update changes neither scale nor rotation (a single contact
/// still translates). Contacts whose spread is under
/// ``minimumSpreadMillimeters`` are no pinch: such a frame is skipped for
/// scale and rotation, and the next frame with a real spread has its scale
/// compared with the last one before it (its angle, undefined through the
/// gap, is not), so fingers that jump onto each other and apart again cannot
/// ratchet the scale. The scale stays in ``scaleRange``.
///
///     var state = TransformState(contacts: [
///         .init(id: 1, position: Point(x: 40, y: 30)),
///         .init(id: 2, position: Point(x: 60, y: 30)),
///     ])
///     // The right finger moves down, the left one up: a quarter turn clockwise
///     // with the fingers twice as far apart, centroid unchanged.
///     let delta = state.update([
///         .init(id: 1, position: Point(x: 50, y: 10)),
///         .init(id: 2, position: Point(x: 50, y: 50)),
///     ])
///     delta.scaleRatio          // 2.0
///     delta.rotationDegrees     // 90.0
///     state.translationMillimeters  // (0.0, 0.0)
///
/// - Complexity: ``update(_:)`` is O(n log n) for n contacts.
public struct TransformState: Hashable, Sendable {
    /// One touching finger: a tracking id and a position in millimetres.
    public struct Contact: Hashable, Sendable, Codable {
        /// Identifies the contact across updates (a tracking id or slot).
        public var id: Int
        /// Where it touches, in millimetres (y grows downwards).
        public var position: Point

        /// A contact `id` at `position` in millimetres.
        public init(id: Int, position: Point) {
            self.id = id
            self.position = position
        }
    }

    /// What one update changed.
    public struct Delta: Hashable, Sendable {
        /// The movement of the centroid, in millimetres.
        public var translationMillimeters: Point
        /// The new spread divided by the old one (1 when unchanged).
        public var scaleRatio: Double
        /// The rotation in degrees, clockwise positive on screen, in (-180, 180].
        public var rotationDegrees: Double

        /// A change of `translationMillimeters`, `scaleRatio` and `rotationDegrees`.
        public init(translationMillimeters: Point, scaleRatio: Double, rotationDegrees: Double) {
            self.translationMillimeters = translationMillimeters
            self.scaleRatio = scaleRatio
            self.rotationDegrees = rotationDegrees
        }

        /// No change: no movement, a ratio of 1, no rotation.
        public static let identity = Delta(translationMillimeters: .zero, scaleRatio: 1, rotationDegrees: 0)
    }

    /// Below this spread (mean distance from the centroid), in millimetres,
    /// contacts are no pinch and a frame changes neither scale nor rotation:
    /// 2 mm, two contacts whose centres are 4 mm apart, closer than two
    /// fingertips can be (so only noise, a palm or a broken device gets there).
    public static let minimumSpreadMillimeters = 2.0 /* mm */

    /// The scales ``scale`` is kept within: 0.01 to 100, a hundred times
    /// narrower or wider than the start, more than any surface allows
    /// (100 x 2 mm is 20 cm).
    public static let scaleRange: ClosedRange<Double> = 0.01...100

    /// The movement of the centroid since the start, in millimetres.
    public private(set) var translationMillimeters: Point = .zero
    /// The spread relative to the start (1 at the start, 2 when twice as far apart).
    public private(set) var scale: Double = 1
    /// The rotation since the start in degrees, clockwise positive, accumulated
    /// over any number of turns.
    public private(set) var rotationDegrees: Double = 0
    /// What the latest update changed (``Delta/identity`` before any update).
    public private(set) var lastDelta: Delta = .identity
    /// The current contacts with finite positions, one per id, sorted by id.
    public private(set) var contacts: [Contact]
    /// The contacts scale and rotation are measured from: those of the
    /// latest frame whose spread was not under ``minimumSpreadMillimeters``
    /// (or of the latest frame that re-based the state).
    private var reference: [Contact]
    /// Whether frames too close together for a pinch came since ``reference``:
    /// the angle through such a gap is undefined, so only the scale is measured.
    private var referenceIsStale = false

    /// A state that starts from `contacts` (or from the first update's
    /// contacts when empty), with no translation, scale 1 and no rotation.
    public init(contacts: [Contact] = []) {
        self.contacts = Self.normalized(contacts)
        reference = self.contacts
    }

    /// The centroid (mean position) of the current contacts, or `nil` when there are none.
    public var centroid: Point? {
        contacts.isEmpty ? nil : Self.centroid(of: contacts.map(\.position))
    }

    /// The mean distance of the current contacts from their centroid, in
    /// millimetres (0 with fewer than two contacts).
    public var spreadMillimeters: Double {
        let points = contacts.map(\.position)
        guard points.count >= 2 else { return 0 }
        return Self.spread(of: points, about: Self.centroid(of: points))
    }

    /// Moves to the contacts of a new frame and returns what changed.
    ///
    /// Only contacts present both before and after (by id) are compared; a
    /// contact that joins or leaves changes nothing by itself. Contacts with a
    /// non-finite position are ignored, and of several with the same id the
    /// first counts.
    @discardableResult
    public mutating func update(_ newContacts: [Contact]) -> Delta {
        let current = Self.normalized(newContacts)
        var delta = Delta.identity
        if let (before, after) = Self.shared(from: contacts, to: current) {
            let translation = Self.centroid(of: after) - Self.centroid(of: before)
            if translation.isFinite { delta.translationMillimeters = translation }
        }
        switch Self.shapeChange(from: reference, to: current) {
        case .measured(let ratio, let degrees):
            delta.scaleRatio = ratio
            delta.rotationDegrees = referenceIsStale ? 0 : degrees
            reference = current
            referenceIsStale = false
        case .rebase:
            reference = current
            referenceIsStale = false
        case .noPinch:
            referenceIsStale = true
        }
        contacts = current
        lastDelta = delta
        let translation = translationMillimeters + delta.translationMillimeters
        if translation.isFinite { translationMillimeters = translation }
        let newScale = scale * delta.scaleRatio
        if newScale.isFinite, newScale > 0 { scale = min(max(newScale, Self.scaleRange.lowerBound), Self.scaleRange.upperBound) }
        let rotation = rotationDegrees + delta.rotationDegrees
        if rotation.isFinite { rotationDegrees = rotation }
        return delta
    }

    /// Moves to `newContacts` without counting any change: the totals stay
    /// as they are and the next ``update(_:)`` compares with these contacts.
    /// For positions that are not motion: a finger replaced by another, a
    /// contact the device made jump.
    ///
    ///     var state = TransformState(contacts: [.init(id: 1, position: Point(x: 10, y: 10))])
    ///     state.rebase([.init(id: 1, position: Point(x: 40, y: 10))])
    ///     state.translationMillimeters   // (0.0, 0.0)
    public mutating func rebase(_ newContacts: [Contact]) {
        contacts = Self.normalized(newContacts)
        reference = contacts
        referenceIsStale = false
        lastDelta = .identity
    }

    /// The positions of the contacts present in both frames, before and after, or nil for none.
    private static func shared(from previous: [Contact], to current: [Contact]) -> (before: [Point], after: [Point])? {
        var positionBefore: [Int: Point] = [:]
        for contact in previous { positionBefore[contact.id] = contact.position }
        var before: [Point] = []
        var after: [Point] = []
        for contact in current {
            if let position = positionBefore[contact.id] {
                before.append(position)
                after.append(contact.position)
            }
        }
        return before.isEmpty ? nil : (before, after)
    }

    /// How the shape changed from the reference frame to the current one.
    private enum ShapeChange {
        /// The spread changed by `ratio` and the contacts turned by `degrees`.
        case measured(ratio: Double, degrees: Double)
        /// Nothing to compare (fewer than two shared contacts, or a reference
        /// without a real spread): the current frame becomes the reference.
        case rebase
        /// The current contacts are too close together to be a pinch: the
        /// reference stays for the next frame.
        case noPinch
    }

    /// The change of spread and angle, from the contacts the frames share.
    private static func shapeChange(from reference: [Contact], to current: [Contact]) -> ShapeChange {
        guard let (before, after) = shared(from: reference, to: current), before.count >= 2 else { return .rebase }
        let centroidBefore = centroid(of: before)
        let centroidAfter = centroid(of: after)
        let spreadBefore = spread(of: before, about: centroidBefore)
        let spreadAfter = spread(of: after, about: centroidAfter)
        guard spreadBefore.isFinite, spreadBefore >= minimumSpreadMillimeters else { return .rebase }
        guard spreadAfter.isFinite, spreadAfter >= minimumSpreadMillimeters else { return .noPinch }
        let ratio = spreadAfter / spreadBefore

        // Sum of r_before * r_after * (sin, cos) of each contact's angle change:
        // its argument is the weighted circular mean of the changes. In y-down
        // coordinates a positive cross product is a clockwise turn on screen.
        var sine = 0.0, cosine = 0.0
        for (old, new) in zip(before, after) {
            let a = old - centroidBefore, b = new - centroidAfter
            sine += a.x * b.y - a.y * b.x
            cosine += a.x * b.x + a.y * b.y
        }
        let degrees = atan2(sine, cosine) * 180 / Double.pi
        return .measured(ratio: ratio.isFinite ? ratio : 1, degrees: degrees.isFinite ? degrees : 0)
    }

    /// `contacts` without non-finite positions or repeated ids (the first
    /// wins), sorted by id.
    private static func normalized(_ contacts: [Contact]) -> [Contact] {
        var seen: Set<Int> = []
        return contacts
            .filter { $0.position.isFinite && seen.insert($0.id).inserted }
            .sorted { $0.id < $1.id }
    }

    /// The mean of `points`, which must not be empty.
    private static func centroid(of points: [Point]) -> Point {
        var sum = Point.zero
        for point in points { sum = sum + point }
        let mean = sum * (1 / Double(points.count))
        if mean.isFinite { return mean }
        // The sum overflowed: average the scaled-down points instead.
        var scaled = Point.zero
        for point in points { scaled = scaled + point * (1 / Double(points.count)) }
        return scaled
    }

    /// The mean distance of `points` from `center`.
    private static func spread(of points: [Point], about center: Point) -> Double {
        var total = 0.0
        for point in points { total += point.distance(to: center) }
        return total / Double(points.count)
    }
}
