package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import com.rabbitmq.stream.compression.CompressionCodecFactory;

/**
 * In a native image, the stream client's default compression codecs are {@link GzipOnly}'s: its own default factory,
 * which it builds by reflection when no factory is given, links Snappy, LZ4 and zstd, whose libraries the extension
 * leaves out, and the native-image builder refuses what it cannot link. The runtime gives every environment
 * {@link GzipOnly} anyway ({@link StreamEnvironments}).
 */
@TargetClass(className = "com.rabbitmq.stream.impl.CompressionCodecs")
final class Target_CompressionCodecs {

    @Substitute
    private static CompressionCodecFactory instanciateDefault() {
        return new GzipOnly();
    }
}
