import Foundation
import Testing

@testable import GestureRecognition

@Suite("UnistrokePipeline")
struct UnistrokePipelineTests {
    @Test("resampling gives exactly N equally spaced points and keeps the ends", arguments: [2, 16, 64, 100])
    func resampledCount(count: Int) {
        let path = [Point(x: 0, y: 0), Point(x: 30, y: 0), Point(x: 30, y: 40), Point(x: 30, y: 40), Point(x: 0, y: 40)]
        let resampled = UnistrokePipeline.resampled(path, count: count)
        #expect(resampled.count == count)
        #expect(resampled.first == path.first)
        #expect(resampled.last!.distance(to: path.last!) < 1e-9)
        let step = UnistrokePipeline.pathLength(path) / Double(count - 1)
        for i in 1..<count where i < count - 1 {
            // Points lie on the path, so a chord is at most the step along it.
            #expect(resampled[i - 1].distance(to: resampled[i]) <= step + 1e-9)
        }
    }

    @Test(
        "rotating by minus the indicative angle turns it to zero and moves the stroke rigidly about its centroid",
        arguments: [0.0, 0.7, -2.0, 3.0])
    func rotationToTheIndicativeAngle(turn: Double) {
        // An L with a tail, turned by `turn` radians about the origin.
        let shape = [Point(x: 0, y: 0), Point(x: 30, y: 0), Point(x: 30, y: 40), Point(x: 10, y: 50)]
        let path = shape.map { Point(x: $0.x * cos(turn) - $0.y * sin(turn) + 7, y: $0.x * sin(turn) + $0.y * cos(turn) - 3) }
        let angle = UnistrokePipeline.indicativeAngle(path)
        let rotated = UnistrokePipeline.rotated(path, by: -angle)
        #expect(abs(UnistrokePipeline.indicativeAngle(rotated)) < 1e-9)
        let centre = UnistrokePipeline.centroid(path)
        #expect(UnistrokePipeline.centroid(rotated).distance(to: centre) < 1e-9)
        for (before, after) in zip(path, rotated) {
            #expect(abs(before.distance(to: centre) - after.distance(to: centre)) < 1e-9)
        }
        for index in path.indices.dropFirst() {
            #expect(abs(path[index - 1].distance(to: path[index]) - rotated[index - 1].distance(to: rotated[index])) < 1e-9)
        }
    }

    @Test("lines are scaled uniformly, two-dimensional strokes to the square")
    func scaling() {
        let line = UnistrokePipeline.scaled([Point(x: 0, y: 0), Point(x: 100, y: 10)])
        #expect(abs(line[1].x - 250) < 1e-9 && abs(line[1].y - 25) < 1e-9)
        let box = UnistrokePipeline.scaled([Point(x: 0, y: 0), Point(x: 100, y: 50)])
        #expect(abs(box[1].x - 250) < 1e-9 && abs(box[1].y - 250) < 1e-9)
    }

    @Test("after translation the centroid is the origin")
    func translation() {
        let moved = UnistrokePipeline.translatedToOrigin(Strokes.circle(centre: Point(x: 500, y: -300)))
        let c = UnistrokePipeline.centroid(moved)
        #expect(abs(c.x) < 1e-9 && abs(c.y) < 1e-9)
    }
}
