import Foundation
import RoutemapHTTP
import RoutemapTestSupport
import Testing

@Suite("Trusted proxies")
struct TrustedProxyTests {
    static func request(from peer: String, forwardedFor: [String]) -> Request {
        var headers = HTTPHeaders()
        for value in forwardedFor { headers.add(name: "X-Forwarded-For", value: value) }
        return Request(method: .GET, path: "/", headers: headers, remoteAddress: peer)
    }

    @Test("address ranges: IPv4 and IPv6 blocks, single addresses; malformed ones are refused")
    func ranges() throws {
        let block = try #require(AddressRange("10.0.0.0/8"))
        #expect(block.contains(IPAddress("10.200.3.4")!))
        #expect(!block.contains(IPAddress("11.0.0.1")!))
        #expect(!block.contains(IPAddress("::a00:1")!))
        let one = try #require(AddressRange("127.0.0.1"))
        #expect(one.contains(IPAddress("127.0.0.1")!) && !one.contains(IPAddress("127.0.0.2")!))
        let v6 = try #require(AddressRange("fd00::/8"))
        #expect(v6.contains(IPAddress("fd12::1")!) && !v6.contains(IPAddress("fe80::1")!))
        #expect(AddressRange("0.0.0.0/0")!.contains(IPAddress("8.8.8.8")!))
        for bad in ["10.0.0.0/33", "10.0.0/8", "example.com", "::/129", "10.0.0.0/", "10.0.0.0/-1", ""] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
        #expect(TrustedProxies(list: "10.0.0.0/8, 192.168.1.1")?.ranges.count == 2)
        #expect(TrustedProxies(list: "10.0.0.0/8,nope") == nil)
    }

    @Test("the client is the right-most untrusted X-Forwarded-For address, only when the peer is a trusted proxy")
    func clientAddress() {
        let proxies = TrustedProxies(list: "10.0.0.0/8")!
        // Not from a proxy: the header is ignored.
        #expect(proxies.clientAddress(of: Self.request(from: "198.51.100.4", forwardedFor: ["203.0.113.9"])) == "198.51.100.4")
        // From a proxy: right to left, past trusted proxies; what the client wrote on the left is ignored.
        #expect(proxies.clientAddress(of: Self.request(from: "10.0.0.1", forwardedFor: ["6.6.6.6, 203.0.113.9, 10.1.1.1"])) == "203.0.113.9")
        // Several header lines are one list, in order.
        #expect(proxies.clientAddress(of: Self.request(from: "10.0.0.1", forwardedFor: ["6.6.6.6", "203.0.113.9"])) == "203.0.113.9")
        // Every entry a proxy: the left-most; none at all: the proxy; garbage where the client should be: the proxy.
        #expect(proxies.clientAddress(of: Self.request(from: "10.0.0.1", forwardedFor: ["10.9.9.9, 10.1.1.1"])) == "10.9.9.9")
        #expect(proxies.clientAddress(of: Self.request(from: "10.0.0.1", forwardedFor: [])) == "10.0.0.1")
        #expect(proxies.clientAddress(of: Self.request(from: "10.0.0.1", forwardedFor: ["203.0.113.9, unknown"])) == "10.0.0.1")
        #expect(proxies.clientAddress(of: Self.request(from: "10.0.0.1", forwardedFor: [" 2001:db8::1 "])) == "2001:db8::1")
        // No proxies configured: always the peer.
        #expect(TrustedProxies().clientAddress(of: Self.request(from: "10.0.0.1", forwardedFor: ["203.0.113.9"])) == "10.0.0.1")
    }

    @Test("a trusted proxy is exempt from the per-address connection limit; every other address still meets it")
    func proxyExemptFromConnectionLimit() throws {
        let server = try RunningServer {
            $0.connectionLimit = 100
            $0.perAddressConnectionLimit = 2
            $0.trustedProxies = TrustedProxies(list: "127.0.0.1")!
        }
        var held: [TestHTTPClient] = []
        for _ in 0..<6 {
            let client = try server.client()
            #expect(try client.request("GET", "/hello").status == 200)
            held.append(client)
        }
        // 127.0.0.2 is no proxy: two connections, and the third is closed.
        var others: [TestHTTPClient] = []
        for _ in 0..<2 {
            let client = try TestHTTPClient(port: server.port, source: "127.0.0.2")
            #expect(try client.request("GET", "/hello").status == 200)
            others.append(client)
        }
        let third = try TestHTTPClient(port: server.port, source: "127.0.0.2")
        #expect(throws: TestHTTPClientError.self) { _ = try third.request("GET", "/hello") }
        others.removeLast().disconnect()
        // MHD counts the address's connection down once it notices the close.
        #expect(holdsSoon { try TestHTTPClient(port: server.port, source: "127.0.0.2").request("GET", "/hello").status == 200 })
    }
}
