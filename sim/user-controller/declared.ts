import { z } from 'zod';

/**
 * Properties a scenario declares for its controller module, beside the ones every module gets
 * (sim/properties/kubernetes/module.ts): counts of live objects of a kind, overall or per owner.
 *   properties:
 *     - { name: one-pod, kind: Pod, perOwner: PodService, atMost: 1 }
 *     - { name: has-service, kind: Service, perOwner: PodService, atLeast: 1 }   # eventually
 */
export const declaredPropertySchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'expected a property name (lowercase letters, digits, dashes)' }),
    kind: z.string().min(1),
    perOwner: z.string().min(1).optional(),
    atMost: z.number().int().min(0).optional(),
    atLeast: z.number().int().min(0).optional(),
  })
  .refine((p) => (p.atMost === undefined) !== (p.atLeast === undefined), { error: 'expected exactly one of atMost or atLeast' });

export type DeclaredProperty = z.output<typeof declaredPropertySchema>;

/** A user's controller: a sandboxed module (`module:…`) or a Metacontroller webhook (`webhook:…`). */
export const isUserController = (name: string) => name.startsWith('module:') || name.startsWith('webhook:');
