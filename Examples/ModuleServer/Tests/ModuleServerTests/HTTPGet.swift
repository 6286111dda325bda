#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 GET over a plain socket to 127.0.0.1, so the tests need no HTTP client package.
enum HTTPGet {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The response to `GET path`: its status code and body. Times out after 10 s.
    static func get(_ path: String, port: Int) throws -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to port \(port) failed: errno \(errno)") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else { throw Failure(description: "send failed") }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else {
                if count < 0 { throw Failure(description: "recv failed: errno \(errno)") }
                break
            }
            response.append(contentsOf: buffer[0..<count])
        }
        return try parse(String(decoding: response, as: UTF8.self))
    }

    /// Status code and body of a response (bodies here have a Content-Length, not chunks).
    private static func parse(_ response: String) throws -> (status: Int, body: String) {
        guard let headerEnd = response.range(of: "\r\n\r\n") else { throw Failure(description: "no end of headers in \(response)") }
        let statusLine = response[..<headerEnd.lowerBound].split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line \(statusLine)") }
        return (status, String(response[headerEnd.upperBound...]))
    }
}
