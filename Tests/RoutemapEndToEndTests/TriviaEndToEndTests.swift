import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The trivia app over HTTP against the real binary and a real SQLite file: per-app launch,
/// a game started and answered over the wire, and a restart in the middle of it.
@Suite("Trivia, end to end")
struct TriviaEndToEndTests {
    @Test("both apps on one server: /v1/launch stays the point of sale, /v1/apps/trivia/launch is the trivia landing")
    func bothApps() throws {
        let server = try Server()
        let pos = try server.get("/v1/launch")
        let posByName = try server.get("/v1/apps/pos/launch")
        #expect(pos.status == 200 && posByName.status == 200)
        #expect(pos.json == posByName.json)
        let trivia = try server.get("/v1/apps/trivia/launch")
        #expect(trivia.status == 200, "\(trivia.text)")
        #expect(trivia.json["stack"]?.array.map { $0["route"]!.string } == ["trivia", "landing", "options"])
        #expect(try server.get("/v1/apps/trivia/routes").json["root"]?["id"] == "trivia")
        #expect(try server.get("/v1/apps/chess/launch").status == 404)
    }

    @Test("a game survives a restart of the server: the answers given, the question order, the next answer")
    func gameAcrossRestart() throws {
        let server = try Server()
        let started = try server.send("POST", "/v1/trivia/games", json: ["difficulty": "medium", "category": "history"])
        #expect(started.status == 201, "\(started.text)")
        let game = started.json["game"]!
        let gameId = game["id"]!.string
        #expect(started.header("Location") == "/v1/trivia/games/\(gameId)")
        let first = game["questions"]!.array[0]
        let answered = try server.send(
            "POST", "/v1/trivia/games/\(gameId)/answers", json: ["questionId": first["id"]!, "answer": first["choices"]!.array[2]])
        #expect(answered.status == 200, "\(answered.text)")
        let before = try server.get("/v1/trivia/games/\(gameId)").json

        let process = server.process
        let token = try process.token()
        #expect(process.stop() == 0)
        let restarted = try RoutemapProcess(databasePath: process.databasePath, token: token)
        defer { restarted.cleanUp() }
        let client = try restarted.client()
        #expect(try client.request("GET", "/v1/trivia/games/\(gameId)").json == before)
        let second = game["questions"]!.array[1]
        let body: JSON = ["questionId": second["id"]!, "answer": second["choices"]!.array[0]]
        let next = try client.request("POST", "/v1/trivia/games/\(gameId)/answers", headers: [("Content-Type", "application/json")], body: body.encoded())
        #expect(next.status == 200, "\(next.text)")
        #expect(next.json["game"]?["answeredCount"] == 2)
        // The first answer stands after the restart too.
        let again = try client.request(
            "POST", "/v1/trivia/games/\(gameId)/answers", headers: [("Content-Type", "application/json")],
            body: (["questionId": first["id"]!, "answer": first["choices"]!.array[0]] as JSON).encoded())
        #expect(again.status == 409)
        #expect(again.json["code"] == "question_already_answered")
    }
}
