package dev.hanwiki.platform;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.RecordComponent;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Says in the OpenAPI description which fields of an answer may be null: record components
 * marked {@link Nullable} (JSpecify, as Spring itself marks nullness) get {@code "null"} among
 * their types (OpenAPI 3.1 dropped {@code nullable}, and springdoc derives no nullness of its
 * own). Without it, a client or fuzzer that checks answers against the description sees every
 * {@code "suggestion": null} as a violation.
 */
final class NullableFields implements ModelConverter {

    private static final String REF_PREFIX = "#/components/schemas/";

    @Override
    public Schema resolve(AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
        Schema<?> schema = chain.hasNext() ? chain.next().resolve(type, context, chain) : null;
        if (schema == null || type.getType() == null) {
            return schema;
        }
        Class<?> raw = Json.mapper().constructType(type.getType()).getRawClass();
        if (!raw.isRecord()) {
            return schema;
        }
        Schema<?> model = schema;
        if (schema.get$ref() != null && schema.get$ref().startsWith(REF_PREFIX)) {
            model = context.getDefinedModels().get(schema.get$ref().substring(REF_PREFIX.length()));
        }
        if (model == null || model.getProperties() == null) {
            return schema;
        }
        Map<String, Schema> properties = model.getProperties();
        for (RecordComponent component : raw.getRecordComponents()) {
            Schema<?> property = properties.get(component.getName());
            if (property != null && component.getAnnotatedType().isAnnotationPresent(Nullable.class)) {
                properties.put(component.getName(), orNull(property));
            }
        }
        return schema;
    }

    @Override
    public boolean isOpenapi31() {
        return true;
    }

    private static Schema<?> orNull(Schema<?> property) {
        if (property.get$ref() != null) {
            return new Schema<>().oneOf(List.of(new Schema<>().$ref(property.get$ref()), new Schema<>().types(Set.of("null"))));
        }
        if (property.getTypes() != null) {
            property.addType("null");
        } else if (property.getType() != null) {
            property.types(new java.util.LinkedHashSet<>(List.of(property.getType(), "null")));
        }
        return property;
    }
}
