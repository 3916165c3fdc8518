import DesktopDaemon
import Foundation
import GestureRecognition
import GestureTraces
import InputChecks
import StructuredDocuments

/// The shapes view's API: the template library the configuration names (or
/// the bundled shapes), a drawn stroke judged by the daemon's own stroke rule
/// and recognizer, and samples added to the library with the ambiguity
/// warning of `gestures train`.
extension PageServer {
    /// The library the page trains: the configuration's `templates`, else
    /// `templates.json` beside the configuration (made from the bundled
    /// shapes on the first save, and named in the answer so the person can
    /// point `templates:` at it).
    struct ShapeLibrary {
        var configuration: DaemonConfiguration
        var path: String
        var isTheConfigurations: Bool
        var library: TemplateLibrary
    }

    func shapeLibrary() throws(PageFailure) -> ShapeLibrary {
        guard let configurationPath = settings.configurationPath else {
            throw PageFailure("no configuration file: start gestures ui with --config PATH")
        }
        var configuration = DaemonConfiguration()
        if FileManager.default.fileExists(atPath: configurationPath) {
            do { configuration = try DaemonConfiguration.load(contentsOf: configurationPath) } catch {
                throw PageFailure("the configuration has errors, so its shapes cannot be trained yet: \(error.description)")
            }
        }
        if let written = configuration.templatesPath {
            // Where the daemon reads it: `~` and a relative path resolved as the configuration's reader resolves them.
            let path = DaemonConfiguration.templatesLocation(written, baseDirectory: PathName.folder(of: configurationPath))
            return ShapeLibrary(configuration: configuration, path: path, isTheConfigurations: true, library: configuration.templates)
        }
        let path = (configurationPath as NSString).deletingLastPathComponent + "/templates.json"
        var library = TemplateLibrary.dollarShapes
        if FileManager.default.fileExists(atPath: path) {
            do {
                library = try TemplateLibrary(
                    jsonData: try InputFile.read(path, maximumBytes: TemplateLibrary.Limits.standard.maximumBytes))
            } catch {
                throw PageFailure("\(path) cannot be read: \(error)")
            }
        }
        return ShapeLibrary(configuration: configuration, path: path, isTheConfigurations: false, library: library)
    }

    /// Why a request of the shapes or recordings view failed: one sentence.
    struct PageFailure: Error {
        var description: String
        init(_ description: String) { self.description = description }
    }

    func shapesAnswer() -> HTTPResponse {
        do {
            let shapes = try shapeLibrary()
            let templates = shapes.library.templates.map { template in
                "{\"name\":\(JSONText.quoted(template.name)),\"points\":\(Self.pointsJSON(template.points))}"
            }
            // The shapes each could be confused with: the warning `gestures train` gives, for every template.
            let engine = shapes.configuration.engine
            let ambiguities = engine.strokeRule.ambiguities(
                of: shapes.library.templates.indices, in: shapes.library, configuration: engine.strokeRecognition
            ).map { ambiguity in
                "{\"name\":\(JSONText.quoted(ambiguity.name)),\"template\":\(ambiguity.template),\"other\":\(JSONText.quoted(ambiguity.other.name)),"
                    + "\"text\":\(JSONText.quoted(ambiguity.description))}"
            }
            return Self.json(
                200,
                "{\"library\":\(JSONText.quoted(shapes.path)),\"named\":\(shapes.isTheConfigurations),"
                    + "\"names\":[\(shapes.library.names.map(JSONText.quoted).joined(separator: ","))],\"templates\":[\(templates.joined(separator: ","))],"
                    + "\"ambiguities\":[\(ambiguities.joined(separator: ","))]}"
            )
        } catch {
            return Self.json(409, "{\"error\":\(JSONText.quoted(error.description))}")
        }
    }

    /// Judges a drawn stroke (`{"points":[[x,y],...]}`, millimetres) as the daemon would on a touch surface.
    func recognizeAnswer(_ request: HTTPRequest) -> HTTPResponse {
        let points: [Point]
        do { points = try Self.points(in: request) } catch { return Self.json(400, "{\"error\":\(JSONText.quoted(error.description))}") }
        do {
            let shapes = try shapeLibrary()
            let engine = shapes.configuration.engine
            let recognizer = UnistrokeRecognizer(library: shapes.library, configuration: engine.strokeRecognition)
            let verdict = engine.strokeRule.judge(points, with: recognizer)
            var fields = "\"fires\":\(verdict.isAccepted),\"verdict\":\(JSONText.quoted(verdict.description))"
            if case .accepted(let accepted) = verdict {
                fields += ",\"match\":\(JSONText.quoted(accepted.match.name)),\"score\":\(GestureEvent.decimalText(accepted.match.score))"
                if let runnerUp = accepted.runnerUp {
                    fields +=
                        ",\"runner_up\":\(JSONText.quoted(runnerUp.name)),\"runner_up_score\":\(GestureEvent.decimalText(runnerUp.score))"
                }
            } else if let best = verdict.rejection?.best {
                fields += ",\"best\":\(JSONText.quoted(best.name)),\"score\":\(GestureEvent.decimalText(best.score))"
            }
            return Self.json(200, "{\(fields)}")
        } catch {
            return Self.json(409, "{\"error\":\(JSONText.quoted(error.description))}")
        }
    }

    /// Adds drawn samples to the library: `{"name":"spiral","samples":[[[x,y],...],...]}`.
    func trainAnswer(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = try? DocumentNode.parse(json: Data(request.body ?? [])), case .string(let name)? = body["name"],
            case .array(let samples)? = body["samples"], !samples.isEmpty
        else { return Self.json(400, "{\"error\":\"the request needs a name and at least one sample\"}") }
        guard TemplateLibrary.isValidName(name) else {
            return Self.json(
                422, "{\"error\":\(JSONText.quoted("\(Excerpt.quoted(name)) cannot name a shape: use letters, digits, - and _"))}")
        }
        do {
            var shapes = try shapeLibrary()
            let first = shapes.library.templates.count
            for sample in samples {
                let points = try Self.points(from: sample)
                do { try shapes.library.add(name: name, points: points) } catch {
                    return Self.json(422, "{\"error\":\(JSONText.quoted(error.description))}")
                }
            }
            let engine = shapes.configuration.engine
            let ambiguities = engine.strokeRule.ambiguities(
                of: first..<shapes.library.templates.count, in: shapes.library, configuration: engine.strokeRecognition)
            do { try OutputFile.write(shapes.library.jsonData(), to: shapes.path) } catch {
                return Self.json(500, "{\"error\":\(JSONText.quoted(error.description))}")
            }
            let note =
                shapes.isTheConfigurations
                ? "the daemon uses it from its next reload"
                : "add `templates: \(shapes.path)` to the configuration so the daemon uses it"
            return Self.json(
                200,
                "{\"library\":\(JSONText.quoted(shapes.path)),\"added\":\(samples.count),\"templates\":\(shapes.library.templates.count),"
                    + "\"summary\":\(JSONText.quoted(shapes.library.summary)),"
                    + "\"note\":\(JSONText.quoted(note)),\"ambiguities\":[\(ambiguities.map { JSONText.quoted($0.description) }.joined(separator: ","))]}"
            )
        } catch let failure as PageFailure {
            return Self.json(409, "{\"error\":\(JSONText.quoted(failure.description))}")
        } catch {
            return Self.json(400, "{\"error\":\(JSONText.quoted("\(error)"))}")
        }
    }

    struct PointsError: Error, CustomStringConvertible {
        var description: String
    }

    static func points(in request: HTTPRequest) throws(PointsError) -> [Point] {
        guard let body = try? DocumentNode.parse(json: Data(request.body ?? [])), let points = body["points"] else {
            throw PointsError(description: "the request has no points")
        }
        return try Self.points(from: points)
    }

    /// `[[x,y],...]` as points; at most 10,000 of them, every coordinate a finite number.
    static func points(from node: DocumentNode) throws(PointsError) -> [Point] {
        guard case .array(let items) = node, items.count <= 10_000 else {
            throw PointsError(description: "a stroke is a list of at most 10000 [x, y] points")
        }
        var points: [Point] = []
        points.reserveCapacity(items.count)
        for item in items {
            guard case .array(let pair) = item, pair.count == 2, case .number(let x, _) = pair[0], case .number(let y, _) = pair[1],
                x.isFinite, y.isFinite
            else { throw PointsError(description: "a point of the stroke is not [x, y] with two numbers") }
            points.append(Point(x: x, y: y))
        }
        return points
    }

    static func pointsJSON(_ points: [Point]) -> String {
        "[" + points.map { "[\(GestureEvent.decimalText($0.x)),\(GestureEvent.decimalText($0.y))]" }.joined(separator: ",") + "]"
    }
}
