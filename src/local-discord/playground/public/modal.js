// The modal a bot opens (an InteractionResponseType.Modal response), drawn as a dialog with real form fields.
import { ComponentType, TextInputStyle } from 'discord-api-types/v10';

/** Text inputs and selects of a modal, from action rows or labels. */
export function modalFields(modal) {
  const fields = [];
  for (const c of modal.components ?? []) {
    if (c.type === ComponentType.ActionRow) {
      for (const inner of c.components ?? []) fields.push({ label: inner.label, description: undefined, input: inner });
    } else if (c.type === ComponentType.Label && c.component) {
      fields.push({ label: c.label, description: c.description, input: c.component });
    }
  }
  return fields.filter((f) => f.input.type === ComponentType.TextInput || f.input.type === ComponentType.StringSelect);
}

/** Opens the dialog; resolves with `{ customId: value }` on submit, undefined on cancel. */
export function openModal(dialog, modal) {
  const title = dialog.querySelector('#modal-title');
  const box = dialog.querySelector('#modal-fields');
  const form = dialog.querySelector('form');
  title.textContent = modal.title ?? '';
  box.replaceChildren();
  const inputs = [];
  for (const [i, f] of modalFields(modal).entries()) {
    const id = `modal-field-${i}`;
    const wrap = document.createElement('div');
    wrap.className = 'modal-field';
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = f.label ?? f.input.label ?? f.input.custom_id;
    if (f.input.required !== false)
      label.append(Object.assign(document.createElement('span'), { className: 'req', textContent: ' *' }));
    wrap.append(label);
    if (f.description)
      wrap.append(Object.assign(document.createElement('p'), { className: 'modal-desc', textContent: f.description }));
    let input;
    if (f.input.type === ComponentType.StringSelect) {
      input = document.createElement('select');
      for (const o of f.input.options ?? []) input.append(new Option(o.label, o.value, false, Boolean(o.default)));
    } else {
      input = document.createElement(f.input.style === TextInputStyle.Paragraph ? 'textarea' : 'input');
      if (f.input.placeholder) input.placeholder = f.input.placeholder;
      if (f.input.value) input.value = f.input.value;
      if (f.input.min_length) input.minLength = f.input.min_length;
      if (f.input.max_length) input.maxLength = f.input.max_length;
    }
    input.id = id;
    input.name = f.input.custom_id;
    input.required = f.input.required !== false;
    wrap.append(input);
    box.append(wrap);
    inputs.push(input);
  }
  dialog.showModal();
  inputs[0]?.focus();
  return new Promise((resolve) => {
    const done = (value) => {
      form.removeEventListener('submit', onSubmit);
      cancel.removeEventListener('click', onCancel);
      dialog.removeEventListener('cancel', onCancel);
      dialog.close();
      resolve(value);
    };
    const onSubmit = (e) => {
      e.preventDefault();
      if (!form.reportValidity()) return;
      done(Object.fromEntries(inputs.map((i) => [i.name, i.value])));
    };
    const onCancel = (e) => {
      e.preventDefault();
      done(undefined);
    };
    const cancel = dialog.querySelector('#modal-cancel');
    form.addEventListener('submit', onSubmit);
    cancel.addEventListener('click', onCancel);
    dialog.addEventListener('cancel', onCancel);
  });
}
