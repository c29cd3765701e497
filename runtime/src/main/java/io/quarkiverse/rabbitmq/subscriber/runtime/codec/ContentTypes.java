package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import java.util.Locale;

/** Content types as codecs compare them: the media type alone, in lower case. */
final class ContentTypes {

    static final String JSON = "application/json";
    static final String TEXT = "text/plain";
    static final String OCTET_STREAM = "application/octet-stream";

    private ContentTypes() {
    }

    /** {@code text/csv} for {@code Text/CSV; charset=utf-8}; null for null or blank. */
    static String media(String contentType) {
        if (contentType == null) {
            return null;
        }
        int parameters = contentType.indexOf(';');
        String media = (parameters < 0 ? contentType : contentType.substring(0, parameters)).trim();
        if (media.isEmpty()) {
            return null;
        }
        // The common case costs no copy: already lower case.
        for (int i = 0; i < media.length(); i++) {
            if (Character.isUpperCase(media.charAt(i))) {
                return media.toLowerCase(Locale.ROOT);
            }
        }
        return media;
    }
}
