package dev.hanwiki.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Bytes on a socket, for requests no HTTP client would send: raw non-ASCII in the URL,
 * control characters, broken request lines, oversized headers. The response is read up to the
 * end of its body (Content-Length or the last chunk), not up to the server closing: after some
 * errors nginx lingers on the connection for seconds.
 */
final class RawHttp {

    record Response(int status, String head, String body) {
        String contentType() {
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase().startsWith("content-type:")) {
                    return line.substring("content-type:".length()).strip();
                }
            }
            return "";
        }
    }

    private RawHttp() {
    }

    static Response send(int port, byte[] request) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            return read(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Response read(InputStream in) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int headEnd = -1;
        while (true) {
            int n = in.read(buffer);
            if (n < 0) {
                break;
            }
            received.write(buffer, 0, n);
            byte[] bytes = received.toByteArray();
            if (headEnd < 0) {
                headEnd = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            if (headEnd >= 0 && complete(new String(bytes, 0, headEnd, StandardCharsets.ISO_8859_1), bytes.length - headEnd - 4, bytes)) {
                break;
            }
        }
        String text = received.toString(StandardCharsets.UTF_8);
        int split = text.indexOf("\r\n\r\n");
        String head = split < 0 ? text : text.substring(0, split);
        String body = split < 0 ? "" : text.substring(split + 4);
        String[] statusLine = head.split(" ", 3);
        int status = statusLine.length > 1 && statusLine[1].matches("\\d{3}") ? Integer.parseInt(statusLine[1]) : -1;
        return new Response(status, head, body);
    }

    private static boolean complete(String head, int bodyBytes, byte[] all) {
        for (String line : head.split("\r\n")) {
            String lower = line.toLowerCase();
            if (lower.startsWith("content-length:")) {
                return bodyBytes >= Integer.parseInt(line.substring("content-length:".length()).strip());
            }
            if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                String tail = new String(Arrays.copyOfRange(all, Math.max(0, all.length - 7), all.length), StandardCharsets.ISO_8859_1);
                return tail.endsWith("\r\n0\r\n\r\n") || tail.equals("0\r\n\r\n");
            }
        }
        return false;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** A request as bytes: request line, headers, an empty line, then the body; "Connection: close" is added. */
    static byte[] request(String requestLine, String headers, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(requestLine.getBytes(StandardCharsets.UTF_8));
        out.writeBytes("\r\nHost: 127.0.0.1\r\nConnection: close\r\n".getBytes(StandardCharsets.UTF_8));
        out.writeBytes(headers.getBytes(StandardCharsets.UTF_8));
        out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        out.writeBytes(body);
        return out.toByteArray();
    }
}
