package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;

import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;

/**
 * A body's {@code content-encoding}: {@code gzip} (and {@code x-gzip}) and {@code deflate} are undone before a codec
 * reads it and done after one writes it, with the JDK's own streams. Any other value is left alone: publishers write
 * a charset there too ({@code UTF-8}, as Spring AMQP's converters do), which is no compression to undo.
 * <p>
 * Inflating is bounded: a body that would grow past the bound (the connections' {@code max-message-size}: no larger
 * than a message the extension reads) is undecodable, so a small message cannot fill the heap (a gzip bomb).
 */
public final class ContentEncodings {

    private ContentEncodings() {
    }

    /** The body with its content encoding undone; throws {@link UndecodablePayloadException} when it cannot be. */
    static byte[] decode(byte[] body, String contentEncoding, long maxBytes) {
        String encoding = compression(contentEncoding);
        if (encoding == null) {
            return body;
        }
        try (InputStream in = encoding.equals("deflate") ? new InflaterInputStream(new ByteArrayInputStream(body))
                : new GZIPInputStream(new ByteArrayInputStream(body))) {
            // Grown as it inflates: sized up front from the compressed body, a large one would take its guess at once.
            ByteArrayOutputStream out = new ByteArrayOutputStream(
                    (int) Math.max(32, Math.min(Math.min(maxBytes, 1 << 20), body.length * 4L)));
            byte[] buffer = new byte[8192];
            long total = 0;
            for (int read; (read = in.read(buffer)) > 0;) {
                total += read;
                if (total > maxBytes) {
                    throw new UndecodablePayloadException("the " + encoding + " body of " + body.length
                            + " bytes inflates beyond " + maxBytes + " bytes, the bound set by "
                            + "quarkus.rabbitmq-subscriber.max-message-size", null);
                }
                out.write(buffer, 0, read);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UndecodablePayloadException("the body is not valid " + encoding + " as its content-encoding says ("
                    + e.getClass().getSimpleName() + ")", e);
        }
    }

    /**
     * The first bytes of the body with its content encoding undone, at most {@code limit}: what a preview shows. A body
     * that cannot be inflated is given as it is.
     */
    public static byte[] head(byte[] body, String contentEncoding, int limit) {
        String encoding = compression(contentEncoding);
        if (encoding == null) {
            return body;
        }
        try (InputStream in = encoding.equals("deflate") ? new InflaterInputStream(new ByteArrayInputStream(body))
                : new GZIPInputStream(new ByteArrayInputStream(body))) {
            return in.readNBytes(limit);
        } catch (IOException e) {
            return body;
        }
    }

    /** The body with the content encoding done; a value that names no compression leaves it as it is. */
    public static byte[] encode(byte[] body, String contentEncoding) {
        String encoding = compression(contentEncoding);
        if (encoding == null) {
            return body;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(32, body.length / 2));
        try (OutputStream out = encoding.equals("deflate") ? new DeflaterOutputStream(bytes)
                : new GZIPOutputStream(bytes)) {
            out.write(body);
        } catch (IOException e) {
            // In memory: cannot happen.
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** {@code gzip} or {@code deflate} when the value names one of them, null otherwise. */
    private static String compression(String contentEncoding) {
        if (contentEncoding == null || contentEncoding.isEmpty()) {
            return null;
        }
        String encoding = contentEncoding.trim().toLowerCase(Locale.ROOT);
        return switch (encoding) {
            case "gzip", "x-gzip" -> "gzip";
            case "deflate" -> "deflate";
            default -> null;
        };
    }
}
