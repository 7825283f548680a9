// Element properties that reflect attributes: el.seed = 9 sets seed="9", el.causal = true sets
// the bare causal attribute (false removes it), null or undefined removes the attribute. Reading
// gives the value the element draws with: the attribute parsed (web/settings/settings.js), or the
// default when it is absent or invalid.
import { CONTROLS } from '../settings/settings.js';
import { settingsFromAttributes } from './element-settings.js';

const camel = (attribute) => attribute.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

/**
 * Defines one property per setting in `names` (named after its attribute in camelCase: seq-len
 * → seqLen) and per entry of `extra` ({ attribute: defaultValue }, plain text) on the class's
 * prototype; returns the property names.
 */
export function reflectAttributes(ElementClass, names, extra = {}) {
  const properties = [];
  for (const name of names) {
    const { attribute, kind } = CONTROLS[name];
    const property = camel(attribute);
    Object.defineProperty(ElementClass.prototype, property, {
      get() {
        return settingsFromAttributes(this, this.constructor.settingNames).settings[name];
      },
      set(value) {
        if (value === null || value === undefined) this.removeAttribute(attribute);
        else if (kind === 'bool') this.toggleAttribute(attribute, Boolean(value));
        else this.setAttribute(attribute, Array.isArray(value) ? value.join(' ') : String(value));
      },
      configurable: true,
      enumerable: true,
    });
    properties.push(property);
  }
  for (const [attribute, fallback] of Object.entries(extra)) {
    const property = camel(attribute);
    Object.defineProperty(ElementClass.prototype, property, {
      get() {
        return this.getAttribute(attribute) ?? fallback;
      },
      set(value) {
        if (value === null || value === undefined) this.removeAttribute(attribute);
        else this.setAttribute(attribute, Array.isArray(value) ? value.join(' ') : String(value));
      },
      configurable: true,
      enumerable: true,
    });
    properties.push(property);
  }
  return properties;
}

/**
 * Properties set on an element before its class was defined are own properties that hide the
 * prototype's: take them off and set them again through the setters.
 */
export function upgradeProperties(element, properties) {
  for (const property of properties) {
    if (Object.hasOwn(element, property)) {
      const value = element[property];
      delete element[property];
      element[property] = value;
    }
  }
}
