// Whether a touch is a tap, followed beside the state machine (as libinput's
// tap machine runs beside its gesture machine): the states decide swipes,
// pinches, holds and strokes; the tracker only watches the fingers from the
// first landing to the last lift and is dropped when a gesture begins, the
// pad is clicked or input is lost. Its rules are in Docs/GestureEngine.md.

extension GestureEngine {
    /// One touch, from the first finger landing to the last lifting, judged
    /// as a tap when the last finger lifts.
    ///
    /// A tap is quick (no finger count lasts longer than
    /// ``Configuration/tapMaximumDuration``) and still: once a finger's
    /// landing is over it is, and stays, within
    /// ``Configuration/tapMaximumMovementMillimeters`` of where a finger
    /// landed. That is robust to what real pads do while fingers land and
    /// lift:
    /// - frames at the start and end of a contact whose pressure (or touch
    ///   size) is under ``Configuration/tapLightPressureRatio`` of its peak
    ///   are landing and lifting frames and do not count; without pressure
    ///   or size, the contact's last frame is its lifting frame;
    /// - where a contact landed is its first firm position; in the
    ///   ``Configuration/tapLandingTime`` after it the position may wander
    ///   (within ``Configuration/tapLandingToleranceMillimeters``): a semi-MT
    ///   position jumps for a few frames and comes back;
    /// - positions are compared with where any finger landed, not only the
    ///   same tracking id: a 2-slot pad whose slot jumps to the other finger,
    ///   or swaps the fingers' ids as one flickers, reports no motion;
    /// - on surfaces with approximate positions the one position describes
    ///   the whole set of fingers, so after a finger change it lands again,
    ///   and any of its positions in
    ///   ``Configuration/approximatePositionSettleTime`` may be where it
    ///   settled.
    /// The positions judged are those after the landing, or the last firm
    /// one when there are none: a finger must end near where it landed.
    /// A finger that lifts and comes back within
    /// ``Configuration/fingerChangeDebounce`` flickered and does not end the
    /// touch; one landing later makes a second touch, so nothing is a tap.
    struct TapTracker: Sendable {
        /// One position of one contact.
        struct Sample: Sendable {
            var time: Duration
            var position: Point
            var pressure: Double?
            /// Which landing of the approximate position this belongs to
            /// (it lands again at every finger change); 0 on other surfaces.
            var segment: Int
        }

        /// The most samples kept; a touch with more is too long to tap.
        static let maximumSamples = 1024

        /// Whether the touch may still be a tap.
        private(set) var possible = true
        /// The most fingers down at once, `BTN_TOOL` fingers without a slot included.
        private(set) var maximumFingers: Int
        private var fingers: Int
        /// When the finger count last changed: the tap timer restarts at
        /// every landing and lift, as libinput's.
        private var stepStart: Duration
        /// When the first finger landed.
        private let started: Duration
        /// When a finger last lifted while others stayed.
        private var lastLift: Duration?
        private var segment = 0
        private var sampleCount = 0
        /// Each contact's samples, in the order the contacts appeared.
        private var tracks: [[Sample]] = []
        /// The contact id of each track.
        private var trackIDs: [Int] = []
        /// Room reserved for each track's samples: a tap lasts a few frames,
        /// so a track seldom grows past it.
        private static let reservedSamplesPerTrack = 32

        /// A touch whose first fingers are `snapshot`'s.
        init(_ snapshot: Snapshot) {
            maximumFingers = snapshot.fingers
            fingers = snapshot.fingers
            stepStart = snapshot.time
            started = snapshot.time
            append(snapshot)
        }

        /// Follows the fingers to `snapshot`, which has fingers down.
        mutating func record(_ snapshot: Snapshot, _ configuration: Configuration, approximate: Bool) {
            guard possible else { return }
            let time = snapshot.time
            guard time - stepStart <= configuration.tapMaximumDuration else { return ruleOut() }
            if snapshot.fingers != fingers {
                if snapshot.fingers > fingers, let lastLift, time - lastLift > configuration.fingerChangeDebounce {
                    return ruleOut()  // a finger landing after one lifted: two touches
                }
                if snapshot.fingers < fingers { lastLift = time }
                stepStart = time
                fingers = snapshot.fingers
                maximumFingers = max(maximumFingers, fingers)
                if approximate { segment += 1 }
            }
            append(snapshot)
            if sampleCount > Self.maximumSamples { ruleOut() }
        }

        private mutating func append(_ snapshot: Snapshot) {
            for index in snapshot.contacts.indices {
                let contact = snapshot.contacts[index]
                let sample = Sample(
                    time: snapshot.time, position: contact.position,
                    pressure: index < snapshot.pressures.count ? snapshot.pressures[index] : nil, segment: segment)
                if let track = trackIDs.firstIndex(of: contact.id) {
                    tracks[track].append(sample)
                } else {
                    if trackIDs.isEmpty {
                        trackIDs.reserveCapacity(GestureEngine.maximumFingers)
                        tracks.reserveCapacity(GestureEngine.maximumFingers)
                    }
                    trackIDs.append(contact.id)
                    var track: [Sample] = []
                    track.reserveCapacity(Self.reservedSamplesPerTrack)
                    track.append(sample)
                    tracks.append(track)
                }
            }
            sampleCount += snapshot.contacts.count
        }

        /// Rules the touch out as a tap (a palm landing again, see
        /// ``Configuration/relandingGap``).
        mutating func ruleOut() {
            possible = false
            tracks = []
            trackIDs = []
        }

        /// The tap's finger count if the touch whose fingers all lifted at
        /// `time` was a tap, else nil.
        func tapFingers(allLiftedAt time: Duration, _ configuration: Configuration, on surface: GestureSurface) -> Int? {
            guard possible, time - stepStart <= configuration.tapMaximumDuration,
                time - started >= configuration.tapMinimumDuration
            else { return nil }
            let approximate = surface.positionsAreApproximate
            if let zone = configuration.palmEdgeZone(on: surface), !tracks.isEmpty,
                tracks.allSatisfy({ track in
                    guard let x = track.first?.position.x else { return false }
                    return x < zone || x > surface.widthMillimeters - zone
                })
            {
                return nil  // a palm landing at the side of the pad
            }
            let firm = tracks.map { Self.firm($0, configuration) }
            // Where a finger landed: its first firm position, or the first
            // position of all (a light landing frame before a semi-MT jump).
            let touchdowns = tracks.compactMap(\.first?.position)
            if approximate {
                return zip(firm, touchdowns).allSatisfy { Self.settled($0, landedAt: $1, configuration) } ? maximumFingers : nil
            }
            let landings = firm.compactMap(\.first?.position) + touchdowns
            return firm.allSatisfy { Self.stayed($0, near: landings, configuration) } ? maximumFingers : nil
        }

        /// `track` without its landing and lifting frames.
        static func firm(_ track: [Sample], _ configuration: Configuration) -> ArraySlice<Sample> {
            var kept = track[...]
            if track.allSatisfy({ $0.pressure != nil }), let peak = track.compactMap(\.pressure).max(), peak > 0 {
                let light = peak * configuration.tapLightPressureRatio
                while let first = kept.first, first.pressure! < light { kept.removeFirst() }
                while let last = kept.last, last.pressure! < light { kept.removeLast() }
            } else if kept.count > 1 {
                kept.removeLast()  // no pressure: the last frame is the lifting one
            }
            return kept
        }

        /// Whether a contact whose firm samples are `track` stayed where a
        /// finger landed (`landings`): its landing positions within the
        /// landing tolerance of its own first one (or near any landing), and
        /// every later position (the last one, when none is later) within
        /// the tap movement of one of `landings`.
        static func stayed(_ track: ArraySlice<Sample>, near landings: [Point], _ configuration: Configuration) -> Bool {
            guard let first = track.first, let last = track.last else { return true }
            let movement = configuration.tapMaximumMovementMillimeters
            func nearLanding(_ point: Point) -> Bool { landings.contains { $0.distance(to: point) <= movement } }
            let landing = track.prefix { $0.time - first.time <= configuration.tapLandingTime }
            let later = track.dropFirst(landing.count)
            return landing.allSatisfy {
                $0.position.distance(to: first.position) <= configuration.tapLandingToleranceMillimeters || nearLanding($0.position)
            } && (later.isEmpty ? nearLanding(last.position) : later.allSatisfy { nearLanding($0.position) })
        }

        /// Whether the approximate position of a semi-MT pad stayed where
        /// it landed, landing by landing: the first landing as any contact's
        /// (see ``stayed(_:near:_:)``); after each finger change, within the
        /// tap movement of one of its positions of the settling time.
        static func settled(_ track: ArraySlice<Sample>, landedAt touchdown: Point, _ configuration: Configuration) -> Bool {
            guard let firstSegment = track.first?.segment else { return true }
            var index = track.startIndex
            while index < track.endIndex {
                let segment = track[index].segment
                var end = index
                while end < track.endIndex && track[end].segment == segment { end += 1 }
                let run = track[index..<end]
                if segment == firstSegment {
                    // Cut short by a finger change, it is still landing: only its wander counts.
                    let landings = [run.first!.position, touchdown]
                    if end < track.endIndex {
                        let limit = configuration.tapLandingToleranceMillimeters
                        guard run.allSatisfy({ $0.position.distance(to: landings[0]) <= limit }) else { return false }
                    } else if !stayed(run, near: landings, configuration) {
                        return false
                    }
                } else {
                    let start = run.first!.time
                    let settling = run.prefix { $0.time - start <= configuration.approximatePositionSettleTime }
                    var later = run.dropFirst(settling.count).map(\.position)
                    if later.isEmpty && end == track.endIndex { later = [run.last!.position] }
                    let movement = configuration.tapMaximumMovementMillimeters
                    guard
                        settling.contains(where: { anchor in
                            later.allSatisfy { $0.distance(to: anchor.position) <= movement }
                        })
                    else { return false }
                }
                index = end
            }
            return true
        }
    }
}
