package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import com.rabbitmq.stream.compression.Compression;
import com.rabbitmq.stream.compression.CompressionCodec;
import com.rabbitmq.stream.compression.CompressionCodecFactory;
import com.rabbitmq.stream.compression.CompressionUtils;

/**
 * The sub-entry compression the stream client is given: gzip, which the JDK does. The client's default factory loads
 * Snappy, LZ4 and zstd, whose JNI libraries the extension keeps out of applications; a batch compressed with one of
 * those is not read (the client has no codec for it).
 */
final class GzipOnly implements CompressionCodecFactory {

    private final CompressionCodec gzip = new CompressionUtils.GzipCompressionCodec();

    @Override
    public CompressionCodec get(Compression compression) {
        return compression == Compression.GZIP ? gzip : null;
    }
}
