// Element properties that reflect attributes: el.seed = 9 sets seed="9", el.causal = true sets
// the bare causal attribute (false removes it), null or undefined removes the attribute. Reading
// gives the value the element uses: the attribute parsed by the element's own rule (for the
// settings, web/settings/settings.js), or the default when it is absent or invalid.
import { CONTROLS } from '../settings/settings.js';
import { settingsFromAttributes } from './element-settings.js';

const camel = (attribute) => attribute.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

/**
 * Defines one property per entry of `readers` ({ attribute: read(element) }) on the class's
 * prototype, named after its attribute in camelCase (seq-len → seqLen): reading gives
 * read(element); setting writes the attribute (an array joined with spaces), or for a switch
 * (`switches`: { attribute: its default }) removes it when set to its default and otherwise adds
 * it bare (on) or as "off". Returns the property names.
 */
export function reflectProperties(ElementClass, readers, switches = {}) {
  return Object.entries(readers).map(([attribute, read]) => {
    const property = camel(attribute);
    Object.defineProperty(ElementClass.prototype, property, {
      get() {
        return read(this);
      },
      set(value) {
        if (value === null || value === undefined) this.removeAttribute(attribute);
        else if (attribute in switches) {
          if (Boolean(value) === switches[attribute]) this.removeAttribute(attribute);
          else this.setAttribute(attribute, value ? '' : 'off');
        } else this.setAttribute(attribute, Array.isArray(value) ? value.join(' ') : String(value));
      },
      configurable: true,
      enumerable: true,
    });
    return property;
  });
}

/**
 * The properties of the settings in `names` (CONTROLS: read as settingsFromAttributes reads them
 * for the class's settingNames) and of each entry of `extra` ({ attribute: read(element) }, or
 * { attribute: defaultValue }: the attribute as written), `switches` among them as for
 * reflectProperties. Returns the property names.
 */
export function reflectAttributes(ElementClass, names, extra = {}, extraSwitches = {}) {
  const readers = {};
  const switches = { ...extraSwitches };
  for (const name of names) {
    const { attribute, kind } = CONTROLS[name];
    readers[attribute] = (element) => settingsFromAttributes(element, element.constructor.settingNames).settings[name];
    if (kind === 'bool') switches[attribute] = CONTROLS[name].default;
  }
  for (const [attribute, fallback] of Object.entries(extra))
    readers[attribute] =
      typeof fallback === 'function' ? fallback : (element) => element.getAttribute(attribute) ?? fallback;
  return reflectProperties(ElementClass, readers, switches);
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
